import { buildApp } from './app';
import { loadConfig } from './config';
import { sweepFiles } from './files/routes';

/** `npm start`: migrate, seed, serve; stop cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await buildApp(config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  // What a killed process left among the stored files, before anything new is written.
  await sweepFiles(app);
  const address = await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' ? address.replace('0.0.0.0', 'localhost') : address;
  app.log.info({ url: shown }, `Mizan is serving on ${shown}`);
  app.scheduler.start(config.schedulerPollSeconds * 1000);
  app.jobs.start(config.jobsPollSeconds * 1000);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
