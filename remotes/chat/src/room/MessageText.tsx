import { splitLinks } from '../messages/links';

/**
 * A message's text: plain React text with its links as anchors that open in a new tab without
 * giving it this page (`noopener noreferrer`). `dir="auto"` lets each message take the direction
 * of its first strong letter, so an Arabic message reads right to left in an English interface and
 * the other way round.
 */
export function MessageText({ text }: { text: string }) {
  return (
    <div dir="auto" data-testid="message-text" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {splitLinks(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </div>
  );
}
