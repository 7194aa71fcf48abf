import { find } from 'linkifyjs';

/** A piece of a message's text: plain text, or a link the reader may open. */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** Schemes a message may link to; anything else (javascript:, data:, ftp:, file:) stays plain text. */
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** Whether `href` parses as an absolute URL of a safe scheme. */
export function isSafeHref(href: string): boolean {
  try {
    return SAFE_SCHEMES.has(new URL(href).protocol);
  } catch {
    return false;
  }
}

/**
 * Splits a message's text into text and links (web addresses, bare `www.` ones as https, e-mail
 * addresses as mailto). The parts are rendered as React text and anchors, never as HTML, so markup
 * typed in a message shows as the characters typed.
 *
 * @example splitLinks('see www.x.com') // [{kind:'text',text:'see '},{kind:'link',text:'www.x.com',href:'https://www.x.com'}]
 */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  const pushText = (end: number) => {
    if (end <= at) return;
    const last = parts.at(-1);
    const piece = text.slice(at, end);
    if (last?.kind === 'text') last.text += piece;
    else parts.push({ kind: 'text', text: piece });
  };
  for (const found of find(text, { defaultProtocol: 'https' })) {
    if (found.type !== 'url' && found.type !== 'email') continue;
    if (!isSafeHref(found.href)) continue;
    pushText(found.start);
    parts.push({ kind: 'link', text: found.value, href: found.href });
    at = found.end;
  }
  pushText(text.length);
  return parts;
}
