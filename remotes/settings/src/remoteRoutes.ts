// `./routes` as the host loads it: this remote's texts are registered before its screens render.
import './i18n';

export { default } from './routes';
