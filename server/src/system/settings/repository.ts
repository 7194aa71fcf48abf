// Moved to the kernel (settings/repository.ts): auth reads the settings too, and sits below the
// system module. This re-export keeps the modules' imports working.
export * from '../../settings/repository';
