// `./menu`: the menu as this remote's own contracts build it. The host takes this remote's items,
// with their places, from it (host/src/remotes/remoteMenu.ts); its own copy is the fallback.
import { MENU } from '@mizan/contracts';

export default MENU;
