// Main screens in English: axe-core, raw translation keys, screenshots (see lib/screens.mjs).
import { screensSpec } from '../lib/screens.mjs';

screensSpec('en');
