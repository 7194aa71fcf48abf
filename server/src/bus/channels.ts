/** Channels of the bus that only the server uses. */

/**
 * Where a bus that lost its link to the other instances tells this instance's handlers that the
 * link is back (`{ type: 'resync' }`): the hub then tells every socket to read again and checks
 * every session at once (events and revocations published meanwhile may have been missed).
 * Delivered locally only.
 */
export const RESYNC_CHANNEL = 'mizan:resync';
