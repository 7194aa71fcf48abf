import { SecureStorage } from './storage';

describe(SecureStorage.name, () => {
  beforeEach(() => localStorage.clear());

  it('stores the token encrypted: localStorage holds neither the token nor its base64', async () => {
    const sut = new SecureStorage();
    const token = 'tok_7f3a9c2e5b1d4f6a8c0e2b4d6f8a0c2e';
    await sut.set('auth_token', token);

    const raw = localStorage.getItem('auth_token');
    expect(raw).not.toBeNull();
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(btoa(JSON.stringify(token)).slice(0, 16));
    expect(JSON.parse(raw!)).toEqual({ v: 1, iv: expect.any(String), ct: expect.any(String) });
    expect(sut.peek('auth_token')).toBe(token);
  });

  it('reads the stored values back in a fresh instance (a reload) after ready()', async () => {
    const user = { id: 1, name: 'مدير النظام', permissions: ['courts.view'] };
    const first = new SecureStorage();
    await first.set('auth_token', 'abc');
    await first.set('auth_user', user);

    const second = new SecureStorage();
    expect(second.peek('auth_token')).toBeNull();
    await second.ready();
    expect(second.peek('auth_token')).toBe('abc');
    expect(second.peek('auth_user')).toEqual(user);
  });

  it('drops a tampered item instead of returning garbage', async () => {
    await new SecureStorage().set('theme', 'dark');
    const envelope = JSON.parse(localStorage.getItem('theme')!);
    envelope.ct = btoa('not the ciphertext at all');
    localStorage.setItem('theme', JSON.stringify(envelope));

    const sut = new SecureStorage();
    expect(await sut.get('theme')).toBeNull();
    expect(localStorage.getItem('theme')).toBeNull();
  });

  it('will not decrypt a ciphertext moved to another item (the item name is authenticated)', async () => {
    await new SecureStorage().set('auth_token', 'secret');
    localStorage.setItem('theme', localStorage.getItem('auth_token')!);

    const sut = new SecureStorage();
    await sut.ready();
    expect(sut.peek('theme')).toBeNull();
    expect(sut.peek('auth_token')).toBe('secret');
  });

  it('removes items, and a remove wins over the stored copy on the next ready()', async () => {
    const sut = new SecureStorage();
    await sut.set('themeConfig', { locale: 'en' });
    await sut.remove('themeConfig');
    expect(localStorage.getItem('themeConfig')).toBeNull();
    expect(await new SecureStorage().get('themeConfig')).toBeNull();
  });

  it("a copy of localStorage is useless without this profile's IndexedDB key", async () => {
    await new SecureStorage().set('auth_token', 'secret-token');
    const copied = localStorage.getItem('auth_token');
    // Another browser profile: same localStorage contents, its own (empty) IndexedDB.
    await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase('mizan-keys');
      request.onsuccess = resolve;
      request.onerror = resolve;
    });
    localStorage.setItem('auth_token', copied!);
    expect(await new SecureStorage().get('auth_token')).toBeNull();
  });
});
