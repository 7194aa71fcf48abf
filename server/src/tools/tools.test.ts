import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findTool, forgetTools, runTool, ToolFailedError, ToolMissingError, toolStatus } from '.';

describe('optional external tools', () => {
  const saved = process.env.MIZAN_PDFTOTEXT;
  afterEach(() => {
    if (saved === undefined) delete process.env.MIZAN_PDFTOTEXT;
    else process.env.MIZAN_PDFTOTEXT = saved;
    forgetTools();
  });

  it('says which package to install when a tool is missing, and runs nothing', async () => {
    process.env.MIZAN_PDFTOTEXT = '/nowhere/pdftotext';
    forgetTools();
    expect(findTool('pdftotext')).toBeNull();
    expect(toolStatus().pdftotext).toBe(false);
    await expect(runTool('pdftotext', ['-v'], { timeoutMs: 5000 })).rejects.toThrow(ToolMissingError);
    await expect(runTool('pdftotext', ['-v'], { timeoutMs: 5000 })).rejects.toThrow(/poppler-utils/);
  });

  it('runs a tool given by its environment variable, with its input and output', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-tool-'));
    const script = path.join(dir, 'fake');
    fs.writeFileSync(
      script,
      '#!/bin/sh\nif [ "$1" = "fail" ]; then echo broken >&2; exit 3; fi\nif [ "$1" = "hang" ]; then sleep 30; fi\ncat\n',
    );
    fs.chmodSync(script, 0o755);
    process.env.MIZAN_PDFTOTEXT = script;
    forgetTools();
    const { stdout } = await runTool('pdftotext', [], { timeoutMs: 5000, input: 'نص عربي' });
    expect(stdout.toString('utf8')).toBe('نص عربي');
    await expect(runTool('pdftotext', ['fail'], { timeoutMs: 5000 })).rejects.toThrow(/exit 3: broken/);
    const hung = runTool('pdftotext', ['hang'], { timeoutMs: 300 });
    await expect(hung).rejects.toBeInstanceOf(ToolFailedError);
    await expect(hung).rejects.toThrow(/timeout/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
