// Stands in for antd's `color-picker/components/ColorPresets` where antd's Button and Tag styles
// import it for `isBright` alone (../antd.js, `antdLeanImports`): the same function without the
// presets panel, whose Collapse and rc colour picker came along with every Button.
import { AggregationColor } from 'antd/es/color-picker/color';

/** antd's `isBright`: whether `value` over `bgColorToken` is light (text on it should be dark). */
export const isBright = (value, bgColorToken) => {
  const { r, g, b, a } = value.toRgb();
  // antd builds an rc colour from the RGB string; an AggregationColor holds exactly that one.
  const hsv = new AggregationColor(value.toRgbString()).metaColor.onBackground(bgColorToken).toHsv();
  if (a <= 0.5) {
    // Adapted to dark mode (as antd does).
    return hsv.v > 0.5;
  }
  return r * 0.299 + g * 0.587 + b * 0.114 > 192;
};
