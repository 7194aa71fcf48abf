// Page weight as part of the browser tests, in bytes, never in time: the login page's
// JavaScript within its gzip budget, no file downloaded twice while a person signs in, sees the
// dashboard and opens a remote's list, and no remote downloading its own copy of a shared
// singleton. The measure is scripts/budget.mjs's (`npm run budget` runs it alone).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSystem } from '../lib/harness.mjs';
import { LOGIN_JS_BUDGET, measure, overBudget, sharedFilesReader } from '../../scripts/budget.mjs';

const sys = useSystem();

describe('page weight', () => {
  test('the login page, the sign-in and a remote screen stay within the budget', () =>
    sys.with('budget', async (open) => {
      const { page } = await open();
      const visit = await measure(page);
      const loginGzip = visit.login.reduce((sum, s) => sum + s.gzip, 0);
      assert.ok(visit.login.length > 0 && loginGzip > 0, 'the login page downloaded its scripts');
      assert.ok(
        visit.all.some((s) => s.path.startsWith('/remotes/settings/')),
        'the remote screen came from the settings remote',
      );
      assert.deepEqual(overBudget(visit, sharedFilesReader()), []);
    }));

  test('names every limit a visit breaks', () => {
    const script = (path, gzip = 1024) => ({ path, gzip });
    const visit = {
      login: [script('/main.js', LOGIN_JS_BUDGET), script('/1.js')],
      all: [
        script('/main.js', LOGIN_JS_BUDGET),
        script('/1.js'),
        script('/1.js'),
        script('/remotes/legal/react.js'),
        script('/remotes/legal/screen.js'),
      ],
    };
    const sharedFilesOf = (remote) => new Set(remote === 'legal' ? ['/remotes/legal/react.js'] : []);
    assert.deepEqual(overBudget(visit, sharedFilesOf), [
      `login page JavaScript ${((LOGIN_JS_BUDGET + 1024) / 1024).toFixed(1)} KB gzip > budget ${(LOGIN_JS_BUDGET / 1024).toFixed(1)} KB`,
      'downloaded twice: /1.js',
      'remote legal downloaded its own copy of a shared module: /remotes/legal/react.js',
    ]);
    assert.deepEqual(
      overBudget({ login: [script('/main.js')], all: [script('/main.js')] }, sharedFilesOf),
      [],
    );
  });
});
