import fs from 'node:fs';
import path from 'node:path';
import { PRESETS_REQUEST } from '../antd';
import { isBright } from './antdIsBright';

// The ES copy of antd is not compiled for jest; its CommonJS twin (lib/) is the same code.
jest.mock('antd/es/color-picker/color', () => jest.requireActual('antd/lib/color-picker/color'));

const { isBright: antdIsBright } = require('antd/lib/color-picker/components/ColorPresets') as {
  isBright: (value: unknown, background: string) => boolean;
};
const { AggregationColor } = require('antd/lib/color-picker/color') as {
  AggregationColor: new (color: string) => unknown;
};

describe("the stand-in for antd's isBright", () => {
  it('answers as antd does, light and dark, opaque and translucent', () => {
    const colours = [
      '#000000',
      '#ffffff',
      '#1d4ed8',
      '#fadb14',
      '#52c41a80',
      '#00000020',
      '#ffffff10',
      'rgba(250,219,20,0.4)',
    ];
    for (const background of ['#fff', '#000', '#141414']) {
      for (const colour of colours) {
        const value = new AggregationColor(colour);
        expect([colour, background, isBright(value, background)]).toEqual([
          colour,
          background,
          antdIsBright(value, background),
        ]);
      }
    }
    expect(isBright(new AggregationColor('#000000'), '#fff')).toBe(false);
    expect(isBright(new AggregationColor('#ffffff'), '#fff')).toBe(true);
  });

  it("replaces an import antd's Button and Tag styles still make", () => {
    const es = path.join(path.dirname(require.resolve('antd/package.json')), 'es');
    for (const file of ['button/style/token.js', 'tag/style/index.js'])
      expect(fs.readFileSync(path.join(es, file), 'utf8')).toContain(
        `import { isBright } from '${PRESETS_REQUEST}'`,
      );
  });
});
