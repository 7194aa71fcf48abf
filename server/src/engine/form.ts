import { parseDigits, type Entity, type Fields } from '@mizan/contracts';

/**
 * Multipart form fields (all strings) → the JSON shape the zod schemas expect, by field type.
 * Values that do not convert are passed through unchanged, so validation reports them (422)
 * exactly as it would for JSON.
 *
 * Arrays (`refs`) come as repeated keys (`roleIds=1&roleIds=2`, or `roleIds[]`) or as one JSON
 * string (`roleIds=[1,2]`). An empty string means "no value" for optional fields.
 */
export function coerceFormFields(
  entity: Entity<Fields>,
  form: Record<string, string[]>,
  withId: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const one = (key: string) => form[key]?.[form[key].length - 1];
  if (withId && form.id) out.id = toNumber(one('id') ?? '');
  if (entity.status && form.status) out.status = toBoolean(one('status') ?? '');
  // The version the form was read at (see `VERSION_FIELD`): checked by update and patch.
  if (form.updatedAt) out.updatedAt = one('updatedAt');
  for (const [key, field] of Object.entries(entity.fields)) {
    if (!(key in form) || field.type === 'files') continue;
    const raw = one(key) ?? '';
    switch (field.type) {
      case 'refs': {
        const values = form[key] ?? [];
        if (values.length === 1 && values[0]!.trim().startsWith('[')) {
          try {
            out[key] = JSON.parse(values[0]!);
          } catch {
            out[key] = values[0];
          }
        } else {
          out[key] = values.filter((v) => v !== '').map((v) => toNumber(v));
        }
        break;
      }
      case 'integer':
      case 'number':
      case 'money':
      case 'ref':
        out[key] = raw.trim() === '' ? null : toNumber(raw);
        break;
      case 'duration':
        // Minutes, or `h:mm` / decimal hours as typed: the schema reads the text.
        out[key] = raw.trim() === '' ? null : /^\d+$/.test(raw.trim()) ? toNumber(raw) : raw;
        out[key] = raw.trim() === '' ? null : toNumber(raw);
        break;
      case 'boolean':
        out[key] = raw === '' ? null : toBoolean(raw);
        break;
      default:
        out[key] = raw === '' && !field.required ? null : raw;
    }
  }
  return out;
}

/** Digits typed on an Arabic or Persian keyboard (`'١٢'`) count as numbers too. */
function toNumber(raw: string): unknown {
  return parseDigits(raw);
}

function toBoolean(raw: string): unknown {
  const v = raw.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'on') return true;
  if (v === 'false' || v === '0' || v === 'off') return false;
  return raw;
}
