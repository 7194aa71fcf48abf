import { AUTH_ROUTES, PEOPLE_ROUTES, pathOf } from '@mizan/contracts';
import type WebSocket from 'ws';
import { openSocket } from '../chat/testing';
import { createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { hasRedisServer, startRedisServer } from '../test/redisServer';

const closed = (socket: WebSocket, ms = 5000) =>
  Promise.race([
    new Promise<number>((resolve) => socket.once('close', (code) => resolve(code))),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), ms)),
  ]);

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

(hasRedisServer ? describe : describe.skip)(
  'sessions under the employee’s control, across two instances',
  () => {
    it.each(dialects())(
      'lists, ends one, ends the others, and an administrator signs out everywhere (%s)',
      async (dialect) => {
        const redis = await startRedisServer();
        const first: TestApp = await createTestApp({ dialect, env: { REDIS_URL: redis.url } });
        const second: TestApp = await createTestApp({
          env: { REDIS_URL: redis.url, DATABASE_URL: first.config.databaseUrl },
        });
        try {
          const admin = await first.login();
          const member = await createUserWith(first.app, admin.headers, ['courts.view']);
          const base = (await second.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
          const get = (t: TestApp, s: Session, url: string) =>
            t.app.inject({ method: 'GET', url: `/api${url}`, headers: s.headers });
          const del = (t: TestApp, s: Session, url: string) =>
            t.app.inject({
              method: 'DELETE',
              url: `/api${url}`,
              headers: { ...s.headers, 'accept-language': 'en' },
            });

          // Besides the one the fixture signed in with: this device (first instance), a phone and a
          // laptop served by the second.
          const here = await first.login(member.email, member.password);
          const phone = await second.login(member.email, member.password);
          const laptop = await second.login(member.email, member.password);
          await first.app.db
            .updateTable('sessions')
            .set({ user_agent: CHROME, ip: '10.1.2.3' })
            .where('employee_id', '=', member.employeeId)
            .execute();
          const phoneSocket = await openSocket(base, phone);
          const laptopSocket = await openSocket(base, laptop);

          const listed = await get(first, here, AUTH_ROUTES.sessions.path);
          expect(listed.statusCode).toBe(200);
          const sessions = listed.json().data as { id: number; current: boolean; browser: string }[];
          expect(sessions).toHaveLength(4);
          expect(sessions.filter((s) => s.current)).toHaveLength(1);
          expect(sessions[0]).toEqual(
            expect.objectContaining({ device: 'desktop', browser: 'Chrome 130 · Windows', ip: '10.1.2.3' }),
          );
          const phoneId = (await get(second, phone, AUTH_ROUTES.sessions.path))
            .json()
            .data.find((s: { current: boolean }) => s.current).id;

          // Ending the phone's session on the first instance: 401 on the second at the next request,
          // and its socket there closes at once.
          const phoneClosed = closed(phoneSocket.socket);
          const ended = await del(first, here, `${pathOf(AUTH_ROUTES.endSession.path, { id: phoneId })}`);
          expect([ended.statusCode, ended.json().data.message]).toEqual([200, 'The session was signed out']);
          expect(await phoneClosed).toBe(4403);
          expect((await get(second, phone, AUTH_ROUTES.sessions.path)).statusCode).toBe(401);
          expect(
            (await del(first, here, `${pathOf(AUTH_ROUTES.endSession.path, { id: phoneId })}`)).statusCode,
          ).toBe(404);
          // Someone else's session is not mine to end.
          const adminSessionId = (await get(first, admin, AUTH_ROUTES.sessions.path)).json().data[0].id;
          expect(
            (await del(first, here, `${pathOf(AUTH_ROUTES.endSession.path, { id: adminSessionId })}`))
              .statusCode,
          ).toBe(404);

          // All but this one.
          const laptopClosed = closed(laptopSocket.socket);
          const others = await del(first, here, AUTH_ROUTES.sessions.path);
          expect(others.json().data).toEqual({ ended: 2 });
          expect(await laptopClosed).toBe(4403);
          expect((await get(second, laptop, AUTH_ROUTES.sessions.path)).statusCode).toBe(401);
          expect((await get(first, here, AUTH_ROUTES.sessions.path)).json().data).toHaveLength(1);

          // An administrator signs the employee out everywhere (audited); the history shows the attempts.
          const again = await second.login(member.email, member.password);
          const againSocket = await openSocket(base, again);
          const againClosed = closed(againSocket.socket);
          const everywhere = await first.app.inject({
            method: 'POST',
            url: `/api${pathOf(PEOPLE_ROUTES.signOutEverywhere.path, { id: member.employeeId })}`,
            headers: admin.headers,
          });
          expect(everywhere.json().data).toEqual({ ended: 2 });
          expect(await againClosed).toBe(4403);
          for (const [t, s] of [
            [first, here],
            [second, again],
          ] as const)
            expect((await get(t, s, AUTH_ROUTES.sessions.path)).statusCode).toBe(401);
          const audit = await first.app.db
            .selectFrom('audit_log')
            .select(['action', 'employee_id'])
            .where('entity_id', '=', member.employeeId)
            .where('action', '=', 'signOutEverywhere')
            .execute();
          expect(audit).toEqual([{ action: 'signOutEverywhere', employee_id: admin.user.id }]);

          await first.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            headers: { 'x-fingerprint-session': 'x', 'user-agent': CHROME },
            payload: { email: member.email, password: 'Wrong-pass-1' },
          });
          const security = await get(
            first,
            admin,
            `${pathOf(PEOPLE_ROUTES.security.path, { id: member.employeeId })}`,
          );
          expect(security.statusCode).toBe(200);
          const { sessions: open, history, twoFactorEnabled } = security.json().data;
          expect(open).toEqual([]);
          expect(twoFactorEnabled).toBe(false);
          expect(history[0]).toEqual(
            expect.objectContaining({
              success: false,
              reason: 'wrong_password',
              browser: 'Chrome 130 · Windows',
            }),
          );
          expect(history.filter((h: { success: boolean }) => h.success)).toHaveLength(5);
          // Only for those who may manage employees.
          const fresh = await first.login(member.email, member.password);
          expect(
            (await get(first, fresh, `${pathOf(PEOPLE_ROUTES.security.path, { id: member.employeeId })}`))
              .statusCode,
          ).toBe(403);
          expect(
            (await get(first, admin, `${pathOf(PEOPLE_ROUTES.security.path, { id: 999999 })}`)).statusCode,
          ).toBe(404);
        } finally {
          await second.close();
          await first.close();
          await redis.stop();
        }
      },
      90_000,
    );
  },
);
