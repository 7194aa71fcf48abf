import { makeScrollListenersPassive, neutraliseDevtoolsHooks } from './app/hardening';

// Before React loads: React reads the devtools hook once, at start.
if (process.env.NODE_ENV === 'production') neutraliseDevtoolsHooks();
makeScrollListenersPassive();

// Async boundary: shared singletons are negotiated with the federation runtime before any import runs.
void import('./bootstrap');
