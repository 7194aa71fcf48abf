// The clients area's screens in Arabic: axe-core, raw translation keys, screenshots (see
// lib/screens.mjs, CLIENT_SCREENS).
import { screensSpec } from '../lib/screens.mjs';

screensSpec('ar', 'clients');
