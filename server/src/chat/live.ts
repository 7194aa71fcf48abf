import crypto from 'node:crypto';
import {
  CHAT_PRESENCE_CHANNEL,
  chatInboxChannel,
  chatRoomChannel,
  type ChatInboxData,
  type ChatPresenceMessage,
  type ChatRoomEvent,
  type Gender,
  type ServerMessage,
} from '@mizan/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Server-internal bus channels of the chat (no socket may join them): every instance hears them
 * and acts on its own sockets.
 */
const INBOX = 'mizan:chat-inbox';
const EVICT = 'mizan:chat-evict';
/** Who is online on each instance: announced on changes and repeated every `HEARTBEAT_MS`. */
export const PRESENCE = 'mizan:chat-presence';

/** How often an instance repeats who is online on it; an instance not heard of for 3 periods is gone. */
const HEARTBEAT_MS = 10_000;

/** An inbox frame for several employees; `mentioned` is filled per employee from `mentions`. */
interface InboxEnvelope {
  employeeIds: number[];
  data: ChatInboxData;
  mentions?: number[];
}

interface PresenceSnapshot {
  instance: string;
  employees: number[];
  /** A starting instance asks the others to answer with theirs. */
  ask?: boolean;
  /** The instance is stopping. */
  gone?: boolean;
}

const internal = (channel: string, data: unknown): ServerMessage => ({ type: 'message', channel, data });

/**
 * The chat's real-time side on one instance: room events, the employees' inbox frames, taking
 * removed members out of a room, and presence (online on any instance), all through the bus so
 * that instances behind one Redis behave as one.
 */
export class ChatLive {
  private readonly instance = crypto.randomBytes(8).toString('hex');
  /** Employees online per instance (this one included), with when it was last heard of. */
  private readonly instances = new Map<string, { employees: Set<number>; seenAt: number }>();
  private readonly stops: (() => void)[] = [];

  constructor(private readonly app: FastifyInstance) {}

  /** Starts listening on the bus and the hub; stopped with the app. */
  start(): void {
    this.stops.push(this.app.bus.subscribe((channel, message) => this.receive(channel, message)));
    this.stops.push(this.app.hub.onPresence(() => this.announce()));
    const timer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    timer.unref();
    this.stops.push(() => clearInterval(timer));
    this.announce(true);
  }

  stop(): void {
    this.app.bus.publish(PRESENCE, internal(PRESENCE, this.snapshot({ gone: true })));
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Publishes an event to a chat's room (its members' sockets that joined it). */
  room(chatId: number, event: Omit<ChatRoomEvent, 'type' | 'channel'>): void {
    const { channel, message } = this.roomEvent(chatId, event);
    this.app.bus.publish(channel, message);
  }

  /** `room`'s event as a write's unit of work holds it (`work.events`), published once it commits. */
  roomEvent(
    chatId: number,
    event: Omit<ChatRoomEvent, 'type' | 'channel'>,
  ): { channel: string; message: ServerMessage } {
    const channel = chatRoomChannel(chatId);
    return { channel, message: { type: 'event', channel, ...event } as ServerMessage };
  }

  /** Relays a member's typing to the room; never stored. */
  typing(
    chatId: number,
    employee: { id: number; name: string; gender: Gender | null },
    typing: boolean,
  ): void {
    const { id: employeeId, name, gender } = employee;
    const channel = chatRoomChannel(chatId);
    this.app.bus.publish(channel, {
      type: 'message',
      channel,
      from: employeeId,
      data: { kind: 'typing', employeeId, name, gender, typing },
    });
  }

  /** One frame to each employee's own chat channel, through one bus message however many they are. */
  inbox(employeeIds: readonly number[], data: ChatInboxData, mentions?: readonly number[]): void {
    for (const { channel, message } of this.inboxEvents(employeeIds, data, mentions))
      this.app.bus.publish(channel, message);
  }

  /** `inbox`'s frame as a write's unit of work holds it (none for nobody), published once it commits. */
  inboxEvents(
    employeeIds: readonly number[],
    data: ChatInboxData,
    mentions?: readonly number[],
  ): { channel: string; message: ServerMessage }[] {
    if (employeeIds.length === 0) return [];
    const envelope: InboxEnvelope = {
      employeeIds: [...employeeIds],
      data,
      mentions: mentions && [...mentions],
    };
    return [{ channel: INBOX, message: internal(INBOX, envelope) }];
  }

  /** Takes the employees' sockets out of the chat's room on every instance. */
  evict(chatId: number, employeeIds: readonly number[]): void {
    if (employeeIds.length === 0) return;
    this.app.bus.publish(EVICT, internal(EVICT, { chatId, employeeIds }));
  }

  isOnline(employeeId: number): boolean {
    const now = Date.now();
    if (this.app.hub.employeesOnline().includes(employeeId)) return true;
    for (const [instance, entry] of this.instances) {
      if (
        instance !== this.instance &&
        now - entry.seenAt <= HEARTBEAT_MS * 3 &&
        entry.employees.has(employeeId)
      )
        return true;
    }
    return false;
  }

  online(): number[] {
    return [...this.onlineSet()];
  }

  private onlineSet(): Set<number> {
    const now = Date.now();
    const all = new Set(this.app.hub.employeesOnline());
    for (const [instance, entry] of this.instances) {
      if (instance === this.instance || now - entry.seenAt > HEARTBEAT_MS * 3) continue;
      for (const id of entry.employees) all.add(id);
    }
    return all;
  }

  private snapshot(extra: Partial<PresenceSnapshot> = {}): PresenceSnapshot {
    return { instance: this.instance, employees: this.app.hub.employeesOnline(), ...extra };
  }

  private announce(ask = false): void {
    this.app.bus.publish(PRESENCE, internal(PRESENCE, this.snapshot(ask ? { ask } : {})));
  }

  /** Repeats this instance's snapshot and forgets instances not heard of (they stopped or died). */
  private heartbeat(): void {
    const now = Date.now();
    for (const [instance, entry] of this.instances)
      if (now - entry.seenAt > HEARTBEAT_MS * 3) this.instances.delete(instance);
    this.tellChanges();
    this.announce();
  }

  private receive(channel: string, message: ServerMessage | { type: string }): void {
    if (message.type !== 'message') return;
    const data = (message as { data: unknown }).data;
    if (channel === INBOX) return this.deliverInbox(data as InboxEnvelope);
    if (channel === EVICT) {
      const { chatId, employeeIds } = data as { chatId: number; employeeIds: number[] };
      return this.app.hub.evict(chatRoomChannel(chatId), employeeIds);
    }
    if (channel === PRESENCE) return this.presence(data as PresenceSnapshot);
  }

  private deliverInbox({ employeeIds, data, mentions }: InboxEnvelope): void {
    const mentioned = new Set(mentions ?? []);
    this.app.hub.deliverPerEmployee(new Set(employeeIds), (employeeId) => {
      const channel = chatInboxChannel(employeeId);
      const frame: ChatInboxData =
        data.kind === 'newMessage' ? { ...data, mentioned: mentioned.has(employeeId) } : data;
      return { channel, message: { type: 'message', channel, data: frame } };
    });
  }

  private presence(snapshot: PresenceSnapshot): void {
    if (snapshot.gone) this.instances.delete(snapshot.instance);
    else
      this.instances.set(snapshot.instance, { employees: new Set(snapshot.employees), seenAt: Date.now() });
    this.tellChanges();
    if (snapshot.ask && snapshot.instance !== this.instance) this.announce();
  }

  /** What the sockets of this instance were last told is online. */
  private told = new Set<number>();

  /** Tells this instance's presence subscribers who came online or went offline since last told. */
  private tellChanges(): void {
    const before = this.told;
    const after = this.onlineSet();
    this.told = after;
    const tell = (employeeId: number, online: boolean) => {
      const frame: ChatPresenceMessage = {
        type: 'message',
        channel: CHAT_PRESENCE_CHANNEL,
        data: { kind: 'presence', employeeId, online },
      };
      this.app.hub.deliver(CHAT_PRESENCE_CHANNEL, frame);
    };
    for (const id of after) if (!before.has(id)) tell(id, true);
    for (const id of before) if (!after.has(id)) tell(id, false);
  }
}
