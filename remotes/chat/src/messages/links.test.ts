import { isSafeHref, splitLinks } from './links';

describe('splitLinks', () => {
  it('finds web and e-mail addresses between text, bare www. ones as https', () => {
    expect(splitLinks('انظر www.example.com ثم راسل a@b.co الآن')).toEqual([
      { kind: 'text', text: 'انظر ' },
      { kind: 'link', text: 'www.example.com', href: 'https://www.example.com' },
      { kind: 'text', text: ' ثم راسل ' },
      { kind: 'link', text: 'a@b.co', href: 'mailto:a@b.co' },
      { kind: 'text', text: ' الآن' },
    ]);
  });

  it('leaves other schemes and markup as plain text', () => {
    const text = 'ftp://files.example.org <img src=x onerror=alert(1)> javascript:alert(1)';
    expect(splitLinks(text)).toEqual([{ kind: 'text', text }]);
  });

  it('keeps text without links whole', () => {
    expect(splitLinks('مرحبا hello')).toEqual([{ kind: 'text', text: 'مرحبا hello' }]);
    expect(splitLinks('')).toEqual([]);
  });
});

describe('isSafeHref', () => {
  it.each([
    ['https://x.org', true],
    ['http://x.org', true],
    ['mailto:a@b.co', true],
    ['javascript:alert(1)', false],
    ['data:text/html,hi', false],
    ['/relative', false],
  ])('%s → %s', (href, safe) => expect(isSafeHref(href)).toBe(safe));
});
