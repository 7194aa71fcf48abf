import { SaxesParser } from 'saxes';

/**
 * Judges an uploaded SVG by parsing it (saxes, a strict namespace-aware XML parser) against an
 * allow-list, instead of searching its text: `<s:script xmlns:s="http://www.w3.org/2000/svg">` is a
 * script whatever its prefix. Refused: scripts and embedded documents in any namespace, elements
 * of the SVG namespace outside the list below, HTML or MathML elements, event-handler attributes,
 * links other than `#fragment` or an embedded raster image, `javascript:`/`@import`/external
 * `url()` in styles, animations that target links or handlers, DOCTYPE (entity expansion) and
 * processing instructions. Metadata vocabularies that editors write (Inkscape, RDF, Dublin Core)
 * are inert and allowed.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

/** Names refused in any namespace: each can run code or embed a document. */
const NEVER = new Set(['script', 'foreignObject', 'iframe', 'object', 'embed', 'handler', 'listener', 'set']);

/** Drawing elements of the SVG namespace that a logo or icon uses. */
const SVG_ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'metadata',
  'switch',
  'view',
  'style',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'image',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'marker',
  'filter',
  'animate',
  'animateTransform',
  'animateMotion',
  'mpath',
  ...[
    'Blend',
    'ColorMatrix',
    'ComponentTransfer',
    'Composite',
    'ConvolveMatrix',
    'DiffuseLighting',
    'DisplacementMap',
    'DistantLight',
    'DropShadow',
    'Flood',
    'FuncA',
    'FuncB',
    'FuncG',
    'FuncR',
    'GaussianBlur',
    'Image',
    'Merge',
    'MergeNode',
    'Morphology',
    'Offset',
    'PointLight',
    'SpecularLighting',
    'SpotLight',
    'Tile',
    'Turbulence',
  ].map((f) => `fe${f}`),
]);

/** Lower-case with whitespace and control characters removed, as a browser reads a URL scheme. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is dropped
const squeeze = (value: string) => value.replace(/[\u0000-\u0020\u007f]+/g, '').toLowerCase();

/** A link an SVG image may hold: a fragment of itself, or an embedded raster image. */
const safeLink = (value: string) => {
  const v = squeeze(value);
  return v === '' || v.startsWith('#') || /^data:image\/(png|jpeg|gif|webp);/.test(v);
};

/** CSS that could run code or fetch something: `javascript:`, `expression(`, `@import`, external `url()`. */
function unsafeCss(css: string): boolean {
  const v = squeeze(css.replace(/\\/g, ''));
  if (v.includes('javascript:') || v.includes('expression(') || v.includes('@import')) return true;
  return [...v.matchAll(/url\(([^)]*)\)/g)].some((m) => !safeLink(m[1]!.replace(/^["']|["']$/g, '')));
}

/**
 * Why `svg` is refused, or null when it is a safe image.
 *
 * @example
 * svgProblem(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>')) // 'element <script>'
 */
export function svgProblem(svg: Buffer | string): string | null {
  const text = (typeof svg === 'string' ? svg : svg.toString('utf8')).replace(/^\uFEFF/, '');
  const parser = new SaxesParser({ xmlns: true, position: false });
  let problem: string | null = null;
  let depth = 0;
  let inStyle = false;
  const refuse = (why: string) => {
    problem ??= why;
  };
  parser.on('error', (error) => refuse(`not well-formed XML (${error.message})`));
  parser.on('doctype', () => refuse('a DOCTYPE'));
  parser.on('processinginstruction', (pi) => refuse(`a processing instruction <?${pi.target}?>`));
  parser.on('opentag', (tag) => {
    const { local, uri } = tag;
    if (depth === 0 && (local !== 'svg' || uri !== SVG_NS))
      refuse('a root other than <svg> in the SVG namespace');
    depth += 1;
    if (NEVER.has(local)) refuse(`element <${tag.name}>`);
    else if (uri === SVG_NS && !SVG_ELEMENTS.has(local)) refuse(`element <${tag.name}>`);
    else if (uri === XHTML_NS || uri === MATHML_NS || uri === '') refuse(`element <${tag.name}> outside SVG`);
    inStyle = uri === SVG_NS && local === 'style';
    for (const attr of Object.values(tag.attributes)) {
      const name = attr.local.toLowerCase();
      if (name.startsWith('on')) refuse(`event handler ${attr.name}`);
      else if (name === 'href' || name === 'src') {
        if (!safeLink(attr.value)) refuse(`link ${attr.name}="${attr.value.slice(0, 60)}"`);
      } else if (name === 'style' && unsafeCss(attr.value)) refuse(`style attribute`);
      else if (name === 'attributename' && /^(on|href$|xlink:href$)/i.test(attr.value.trim()))
        refuse(`animation of ${attr.value}`);
      else if (squeeze(attr.value).includes('javascript:')) refuse(`javascript: in ${attr.name}`);
    }
  });
  parser.on('closetag', () => {
    depth -= 1;
    inStyle = false;
  });
  const css = (data: string) => {
    if (inStyle && unsafeCss(data)) refuse('a style sheet that loads or runs something');
  };
  parser.on('text', css);
  parser.on('cdata', css);
  try {
    parser.write(text).close();
  } catch (error) {
    refuse(`not well-formed XML (${(error as Error).message})`);
  }
  return problem;
}

/** True when the bytes are an SVG document at all (an XML declaration, comments, then `<svg`). */
export function looksLikeSvg(head: Buffer): boolean {
  if (head.includes(0)) return false;
  const text = head
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(text);
}
