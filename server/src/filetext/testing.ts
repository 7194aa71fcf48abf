import fs from 'node:fs';
import path from 'node:path';
import { runTool } from '../tools';

/**
 * Arabic pages made at run time for the tests and the OCR benchmark (no committed binaries), with
 * the tools the application uses: `pages` (lines per page) rendered by LibreOffice to a PDF with
 * text, its pages rasterised by pdftoppm, and those images wrapped by LibreOffice again into a
 * scanned PDF (images only, no text layer). Files go into `dir`.
 *
 * @example const { scanPdf } = await makeArabicScan(dir, [['قضية الإيجار']], { fontPt: 20, dpi: 200 });
 */
export async function makeArabicScan(
  dir: string,
  pages: readonly (readonly string[])[],
  options: { fontPt: number; dpi: number },
): Promise<{ textPdf: string; scanPdf: string; images: string[] }> {
  // A profile of its own: a LibreOffice already running elsewhere on the machine does not interfere.
  const soffice = (file: string) =>
    runTool(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        '--convert-to',
        'pdf:writer_pdf_Export',
        file,
      ],
      { cwd: dir, timeoutMs: 300_000 },
    );
  const breakBefore = (i: number) => (i ? ' style="page-break-before:always"' : '');
  const body = pages
    .map((lines, i) =>
      lines
        .map(
          (line, j) =>
            `<p dir="${/[\u0600-\u06ff]/.test(line) ? 'rtl' : 'ltr'}"${breakBefore(j ? 0 : i)}>${line}</p>`,
        )
        .join(''),
    )
    .join('');
  fs.writeFileSync(
    path.join(dir, 'doc.html'),
    `<html><head><meta charset="utf-8"><style>body{font-family:'DejaVu Sans';font-size:${options.fontPt}pt}</style></head><body>${body}</body></html>`,
  );
  await soffice('doc.html');
  await runTool('pdftoppm', ['-r', String(options.dpi), '-gray', '-png', 'doc.pdf', 'page'], {
    cwd: dir,
    timeoutMs: 300_000,
  });
  const images = fs
    .readdirSync(dir)
    .filter((f) => /^page-\d+\.png$/.test(f))
    .sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]));
  fs.writeFileSync(
    path.join(dir, 'scan.html'),
    `<html><head><meta charset="utf-8"></head><body>${images
      .map((f, i) => `<p${breakBefore(i)}><img src="${f}" width="480"></p>`)
      .join('')}</body></html>`,
  );
  await soffice('scan.html');
  return {
    textPdf: path.join(dir, 'doc.pdf'),
    scanPdf: path.join(dir, 'scan.pdf'),
    images: images.map((f) => path.join(dir, f)),
  };
}
