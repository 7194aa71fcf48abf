// Moved to the kernel (settings/model.ts): auth reads the settings too, and sits below the system
// module. This re-export keeps the system module's imports working.
export * from '../../settings/model';
