// The dashboard in English: a payment recorded by another session changes the collection rate on an
// open dashboard without a reload; axe-core in the light and dark themes (see lib/dashboard.mjs).
import { dashboardSpec } from '../lib/dashboard.mjs';

dashboardSpec('en');
