/**
 * The application's own typeface, served with the build so that what a person sees does not depend
 * on the fonts their system happens to have. IBM Plex Sans Arabic draws Arabic and Latin in one
 * design (one family, matching metrics, Arabic-Indic and Latin digits alike). Only what the
 * interface uses is declared: the Arabic and basic Latin subsets (each face is fetched only when a
 * character in its `unicode-range` is shown) in the regular (400) and strong (600) weights antd
 * uses; 500 falls back to 400 and bold to 600. Fontsource's faces use `font-display: swap`.
 */
import '@fontsource/ibm-plex-sans-arabic/arabic-400.css';
import '@fontsource/ibm-plex-sans-arabic/arabic-600.css';
import '@fontsource/ibm-plex-sans-arabic/latin-400.css';
import '@fontsource/ibm-plex-sans-arabic/latin-600.css';

/** antd's `fontFamily` token: the served family first, the systems' UI fonts behind it while it loads. */
export const FONT_FAMILY = "'IBM Plex Sans Arabic', 'Segoe UI', Tahoma, 'Noto Sans Arabic', sans-serif";
