// Standalone development page: this remote's routes inside a minimal shell (the host never loads this).
import { mountStandalone } from '@mizan/build/standalone';
import { routes } from './routes';

void mountStandalone({ name: 'chat', routes });
