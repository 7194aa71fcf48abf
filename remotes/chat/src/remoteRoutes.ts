// `./routes` as the host loads it: this remote's texts are registered before its screens render.
import './i18n';
import { sdkStore, sessionEvents, userAtom } from '@mizan/sdk';
import { outboxServiceFor } from './outboxContext';

export { default } from './routes';

// The signed-in employee's outbox sends what it holds as soon as this remote loads (the host loads
// it at sign-in when messages wait there), not only once the chat screen opens.
const signedIn = sdkStore.get(userAtom);
if (signedIn) outboxServiceFor(signedIn.id);
sessionEvents.on('established', ({ user }) => void outboxServiceFor(user.id));
