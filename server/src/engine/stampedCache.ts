// Moved to the kernel (db/stampedCache.ts): auth caches by write versions too, and sits below the
// engine. Import from '../db/stampedCache'; this re-export keeps older imports working.
export * from '../db/stampedCache';
