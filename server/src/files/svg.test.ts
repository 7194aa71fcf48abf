import { imageType } from './sniff';
import { looksLikeSvg, svgProblem } from './svg';

const svg = (body: string, attrs = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"${attrs}>${body}</svg>`;

describe('svgProblem', () => {
  it.each([
    [
      'shapes and gradients',
      svg(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/>',
      ),
    ],
    [
      'text and a local use',
      svg('<g id="a"><text x="1" y="5">ميزان</text></g><use href="#a" xlink:href="#a"/>'),
    ],
    [
      'an embedded raster image',
      svg('<image href="data:image/png;base64,iVBORw0KGgo=" width="5" height="5"/>'),
    ],
    ['a safe style sheet', svg('<style>.a{fill:#123456}</style><circle class="a" r="3"/>')],
    [
      "an editor's metadata",
      svg(
        '<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata><sodipodi:namedview xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"/>',
      ),
    ],
  ])('accepts %s', (_, text) => {
    expect(svgProblem(Buffer.from(text))).toBeNull();
  });

  it.each([
    ['a plain script', svg('<script>alert(1)</script>'), /element <script>/],
    // The probe that passed the old text search.
    [
      'a namespaced script',
      svg('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>'),
      /element <s:script>/,
    ],
    [
      'an XHTML script',
      svg('<script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script>'),
      /element <script>/,
    ],
    [
      'a foreignObject',
      svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'),
      /foreignObject/,
    ],
    [
      'a namespaced foreignObject',
      svg('<x:foreignObject xmlns:x="http://www.w3.org/2000/svg"/>'),
      /foreignObject/,
    ],
    ['an onload handler', svg('<rect width="1" height="1"/>', ' onload="alert(1)"'), /event handler onload/],
    ['an upper-case handler', svg('<rect ONCLICK="alert(1)"/>'), /event handler ONCLICK/],
    ['a javascript: href', svg('<a href="javascript:alert(1)"><rect/></a>'), /element <a>|link/],
    ['a javascript: xlink:href on use', svg('<use xlink:href=" java\tscript:alert(1)"/>'), /link xlink:href/],
    ['an external image', svg('<image href="https://evil.example/x.png"/>'), /link href/],
    [
      'an HTML data URL',
      svg('<image href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"/>'),
      /link href/,
    ],
    [
      'an animation setting a link',
      svg('<a><animate attributeName="href" to="javascript:alert(1)"/></a>'),
      /element <a>|animation of href/,
    ],
    ['a set element', svg('<set attributeName="onmouseover" to="alert(1)"/>'), /element <set>/],
    [
      'a style importing a sheet',
      svg('<style>@import url(https://evil.example/x.css);</style>'),
      /style sheet/,
    ],
    [
      'a style attribute with a remote url',
      svg('<rect style="fill:url(https://evil.example/p)"/>'),
      /style attribute/,
    ],
    [
      'an iframe in another namespace',
      svg('<h:iframe xmlns:h="urn:x" src="https://evil.example"/>'),
      /element <h:iframe>/,
    ],
    [
      'a DOCTYPE with entities',
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]>${svg('<text>&a;</text>')}`,
      /DOCTYPE|well-formed/,
    ],
    [
      'a processing instruction',
      `<?xml-stylesheet href="https://evil.example/x.css"?>${svg('')}`,
      /processing instruction/,
    ],
    ['a root without the SVG namespace', '<svg><rect/></svg>', /root other than <svg>/],
    ['broken XML', svg('<rect>'), /well-formed/],
  ])('refuses %s', (_, text, why) => {
    expect(svgProblem(Buffer.from(text))).toMatch(why);
  });
});

describe('imageType', () => {
  it('names images by their bytes, SVG included, and nothing else', () => {
    expect(imageType(Buffer.from(svg('<rect/>')))).toBe('image/svg+xml');
    expect(imageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(imageType(Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]))).toBe('image/x-icon');
    expect(imageType(Buffer.from([0, 0, 1, 0, 0, 0]))).toBeNull();
    expect(imageType(Buffer.from('name,code\n'))).toBeNull();
    expect(imageType(Buffer.from('%PDF-1.4'))).toBeNull();
    expect(looksLikeSvg(Buffer.from('<!-- logo -->\n<svg viewBox="0 0 1 1"/>'))).toBe(true);
  });
});
