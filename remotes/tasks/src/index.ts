// Async boundary: shared singletons are negotiated with the federation runtime before any import runs.
void import('./bootstrap');
