import {
  chatRoomChannel,
  type ChatCursor,
  type ChatDetail,
  type ChatMember,
  type ChatMessage,
  type ChatRoomMessage,
  type Gender,
} from '@mizan/contracts';
import { wsClient, type ChannelMessage } from '@mizan/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { chatApi, chatKeys } from '../api';
import { outboxEntry, retryEntry, withoutStored, type OutboxEntry } from '../messages/outbox';
import { applyCursor } from '../messages/status';
import { fetchSince, lastSeenId, mergeMessages, oldestId } from '../messages/timeline';
import { useOutboxService } from '../outboxContext';

/** A typist is dropped when not heard of for this long (they stopped without saying so). */
const TYPING_TTL_MS = 5_000;
/** At most one "typing" frame per this interval while the employee types. */
const TYPING_EVERY_MS = 2_000;

export interface Typist {
  id: number;
  name: string;
  /** For the verb of "X is typing" (يكتب، تكتب); null when not given. */
  gender: Gender | null;
}

/** Whether the page is in front of the employee (a hidden tab does not read). */
const pageVisible = () => document.visibilityState === 'visible';

/**
 * One open chat: its messages (newest page first, older pages on request), its members' cursors
 * (for the ticks), who is typing, and this employee's messages still in the outbox. Live events of
 * the room merge into the list; each time the room is (re)subscribed after a disconnection, what
 * was missed since the last message seen is fetched and merged. Messages are marked delivered as
 * they arrive and read while the page is visible.
 */
export function useRoom(chat: ChatDetail, me: number) {
  const chatId = chat.id;
  const channel = chatRoomChannel(chatId);
  const queries = useQueryClient();
  const { outbox, flush, events } = useOutboxService();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [members, setMembers] = useState<ChatMember[]>(chat.members);
  const [typists, setTypists] = useState<(Typist & { until: number })[]>([]);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const loadedRef = useRef(false);

  const merge = useCallback(
    (incoming: ChatMessage[]) => {
      const own = incoming.filter((m) => m.chatId === chatId);
      if (!own.length) return;
      setMessages((current) => mergeMessages(current, own));
      outbox.set(withoutStored(outbox.get(), own));
    },
    [chatId, outbox],
  );

  useEffect(() => setMembers(chat.members), [chat.members]);

  // The newest page; then everything after the newest message each time the room is subscribed.
  useEffect(() => {
    let live = true;
    loadedRef.current = false;
    setMessages([]);
    setLoaded(false);
    setTypists([]);
    // The newest message held when the connection dropped: live messages that arrive after the
    // reconnection must not move the catch-up past the gap.
    let gapFrom: number | null = null;
    const stopClose = wsClient.events.on('close', () => {
      gapFrom ??= lastSeenId(messagesRef.current);
    });
    // The newest page; the SDK has shown why when it fails, and the next subscription tries again.
    const load = () =>
      chatApi
        .messages(chatId, {})
        .then((page) => {
          if (!live) return;
          loadedRef.current = true;
          setMessages((current) => mergeMessages(current, page.items));
          setHasOlder(page.hasMore);
          setLoaded(true);
        })
        .catch(() => undefined);
    const catchUp = async () => {
      if (!loadedRef.current) return load();
      const after = gapFrom ?? lastSeenId(messagesRef.current);
      gapFrom = null;
      if (after === null) return load();
      // A failed catch-up keeps its start for the next subscription.
      const missed = await fetchSince(after, (cursor) => chatApi.messages(chatId, { after: cursor })).catch(
        () => {
          gapFrom ??= after;
          return [];
        },
      );
      if (live) merge(missed);
    };
    const stop = wsClient.subscribe(channel, (message: ChannelMessage) => {
      if (message.type === 'subscribed' || message.type === 'resubscribed') void catchUp();
      else if (message.type === 'event') {
        if (message.action === 'status') setMembers((m) => applyCursor(m, message.data as ChatCursor));
        else if (message.action === 'chat') {
          setMembers((message.data as ChatDetail).members);
          void queries.invalidateQueries({ queryKey: chatKeys.all });
        } else merge([message.data as ChatMessage]);
      } else if (message.type === 'message') {
        const data = (message as ChatRoomMessage).data;
        if (data?.kind !== 'typing' || data.employeeId === me) return;
        setTypists((all) => [
          ...all.filter((t) => t.id !== data.employeeId),
          ...(data.typing
            ? [
                {
                  id: data.employeeId,
                  name: data.name,
                  gender: data.gender,
                  until: Date.now() + TYPING_TTL_MS,
                },
              ]
            : []),
        ]);
      }
    });
    void load();
    const stopStored = events.on('stored', (message) => {
      merge([message]);
      // The server tells the other members' lists; the sender's own list previews it from here.
      void queries.invalidateQueries({ queryKey: chatKeys.lists });
    });
    return () => {
      live = false;
      stop();
      stopClose();
      stopStored();
    };
  }, [chatId, channel, me, merge, events, queries]);

  // Typists not heard of for a while are dropped.
  useEffect(() => {
    if (!typists.length) return undefined;
    const next = Math.min(...typists.map((t) => t.until)) - Date.now();
    const timer = setTimeout(
      () => setTypists((all) => all.filter((t) => t.until > Date.now())),
      Math.max(next, 0),
    );
    return () => clearTimeout(timer);
  }, [typists]);

  // Delivered as they arrive; read while the page is visible.
  const marked = useRef({ read: 0, delivered: 0 });
  useEffect(() => {
    // The server's cursors when the chat is (re)loaded; later marks move forward from what was sent.
    const mine = chat.members.find((m) => m.id === me);
    marked.current = {
      read: Math.max(marked.current.read, mine?.lastReadId ?? 0),
      delivered: Math.max(marked.current.delivered, mine?.lastDeliveredId ?? 0),
    };
  }, [chat.members, me]);
  useEffect(() => {
    const mark = () => {
      const newest = lastSeenId(messagesRef.current);
      if (newest === null) return;
      if (pageVisible() && newest > marked.current.read) {
        marked.current = { read: newest, delivered: Math.max(newest, marked.current.delivered) };
        void chatApi.read(chatId, newest).catch(() => (marked.current.read = 0));
      } else if (newest > marked.current.delivered) {
        marked.current.delivered = newest;
        void chatApi.delivered(chatId, newest).catch(() => (marked.current.delivered = 0));
      }
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [chatId, messages]);

  const loadOlder = useCallback(async () => {
    const before = oldestId(messagesRef.current);
    if (before === null || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await chatApi.messages(chatId, { before });
      setMessages((current) => mergeMessages(current, page.items));
      setHasOlder(page.hasMore);
    } catch {
      // The SDK has shown why; scrolling up again retries.
    } finally {
      setLoadingOlder(false);
    }
  }, [chatId, loadingOlder]);

  const pending = useSyncExternalStore(outbox.subscribe, outbox.get);

  const send = useCallback(
    (body: string, replyToId: number | null, files: File[] = []) => {
      outbox.set([...outbox.get(), outboxEntry({ chatId, body, replyToId, files })]);
      void flush();
    },
    [chatId, flush, outbox],
  );
  const retry = useCallback(
    (entry: OutboxEntry) => {
      outbox.set(retryEntry(outbox.get(), entry.clientId));
      void flush();
    },
    [flush, outbox],
  );
  const discard = useCallback(
    (entry: OutboxEntry) => outbox.set(outbox.get().filter((e) => e.clientId !== entry.clientId)),
    [outbox],
  );

  const lastTyping = useRef(0);
  const typing = useCallback(
    (now: boolean) => {
      const at = Date.now();
      if (now && at - lastTyping.current < TYPING_EVERY_MS) return;
      lastTyping.current = now ? at : 0;
      wsClient.send({ type: 'message', channel, data: { typing: now } });
    },
    [channel],
  );

  return {
    messages,
    loaded,
    hasOlder,
    loadingOlder,
    loadOlder,
    members,
    typists: typists as Typist[],
    pending: pending.filter((e) => e.chatId === chatId),
    send,
    retry,
    discard,
    typing,
    merge,
  };
}
