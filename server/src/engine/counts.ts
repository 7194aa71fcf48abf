// Moved to the kernel (db/counts.ts): auth reads write versions too, and sits below the engine.
// Import from '../db/counts'; this re-export keeps older imports working.
export * from '../db/counts';
