// Custom fields (spec 002 §3 'Field', §5 'New field'; spec 001 §3 'Field definition').

/** Types a user can pick for a new field: label shown → stored dataType. */
export const OFFERED_FIELD_TYPES = [
  { label: 'String', dataType: 'string' },
  { label: 'Url', dataType: 'url' },
  { label: 'Integer', dataType: 'int' },
  { label: 'Decimal', dataType: 'double' },
  { label: 'Boolean', dataType: 'boolean' },
  { label: 'Address', dataType: 'address' },
  { label: 'Date', dataType: 'date' },
  { label: 'Time', dataType: 'time' },
  { label: 'Currency', dataType: 'currency' },
  { label: 'Email', dataType: 'email' },
  { label: 'Object', dataType: 'object' },
  { label: 'Phone Number', dataType: 'phone' },
] as const;

export type OfferedDataType = (typeof OFFERED_FIELD_TYPES)[number]['dataType'];
/** Internal types, not offered for new fields: id, reference, uuid, number, array. */
export const FIELD_DATA_TYPES = [
  'string',
  'url',
  'int',
  'double',
  'boolean',
  'address',
  'date',
  'time',
  'currency',
  'email',
  'object',
  'phone',
  'id',
  'reference',
  'uuid',
  'number',
  'array',
] as const;
export type FieldDataType = (typeof FIELD_DATA_TYPES)[number];

/** Spec 001 §3: id and reference types are internal and hidden everywhere in the UI (pickers, menus, drawer). */
export const HIDDEN_DATA_TYPES: readonly FieldDataType[] = ['id', 'reference'];

export function isHiddenDataType(dataType: string): boolean {
  return (HIDDEN_DATA_TYPES as readonly string[]).includes(dataType);
}

/**
 * A data type as a person reads it ('Currency', 'Phone Number'), or null for internal ones that
 * say nothing to a user (uuid, id, reference, array): those show no type at all.
 */
export function dataTypeLabel(dataType: string): string | null {
  const offered = OFFERED_FIELD_TYPES.find((t) => t.dataType === dataType);
  if (offered) return offered.label;
  return dataType === 'number' ? 'Number' : null;
}

export const FIELD_NAMESPACES = ['company', 'contact', 'system', 'user', 'organization', 'contact_activity', 'idea'] as const;
export const REFRESH_SCHEDULES = ['never', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export const RECONCILIATIONS = ['use_latest', 'keep_existing'] as const;
export const RECORD_ENTITY_TYPES = ['company', 'contact'] as const;
export type RecordEntityType = (typeof RECORD_ENTITY_TYPES)[number];

export const FIELD_NAME_MAX = 50;
export const FIELD_MESSAGES = {
  nameMin: 'Field name must be at least 1 characters long',
  nameMax: 'Field name must be at most 50 characters long',
  duplicate: 'A field with this name already exists',
  created: 'Field created successfully',
  notFound: 'Field not found',
  mandatory: 'Built-in fields cannot be changed',
} as const;

export function fieldNameProblem(label: string): string | null {
  const t = label.trim();
  if (t.length < 1) return FIELD_MESSAGES.nameMin;
  if (t.length > FIELD_NAME_MAX) return FIELD_MESSAGES.nameMax;
  return null;
}

/** Numeric types: stored and compared as numbers. */
export const NUMERIC_TYPES: readonly FieldDataType[] = ['int', 'double', 'currency', 'number'];
/** Temporal types: stored as ISO text, compared in order. */
export const TEMPORAL_TYPES: readonly FieldDataType[] = ['date', 'time'];

/** Turns user input into the stored value of a field, or reports why it cannot. */
export function coerceFieldValue(dataType: FieldDataType, raw: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (raw === null || raw === undefined || raw === '') return { ok: true, value: null };
  // Blank input in a typed field clears it too (Number('  ') would be 0).
  if (
    typeof raw === 'string' &&
    raw.trim() === '' &&
    (NUMERIC_TYPES.includes(dataType) || TEMPORAL_TYPES.includes(dataType) || dataType === 'boolean')
  )
    return { ok: true, value: null };
  switch (dataType) {
    case 'int': {
      const n = toNumber(raw);
      return Number.isInteger(n) ? { ok: true, value: n } : { ok: false, message: 'Please enter a whole number' };
    }
    case 'double':
    case 'currency':
    case 'number': {
      const n = toNumber(raw);
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: 'Please enter a number' };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const s = String(raw).trim().toLowerCase();
      if (['true', 'yes', '1'].includes(s)) return { ok: true, value: true };
      if (['false', 'no', '0'].includes(s)) return { ok: true, value: false };
      return { ok: false, message: 'Please enter true or false' };
    }
    case 'date': {
      const s = String(raw).trim();
      // A real calendar day: Date.parse rolls '2024-02-30' over to March instead of refusing it.
      const real =
        /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
      return real ? { ok: true, value: s } : { ok: false, message: 'Please enter a date (YYYY-MM-DD)' };
    }
    case 'time': {
      const s = String(raw).trim();
      return /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(s)
        ? { ok: true, value: s }
        : { ok: false, message: 'Please enter a time (HH:MM)' };
    }
    case 'object':
      return { ok: true, value: typeof raw === 'string' ? safeJson(raw) : raw };
    default:
      return { ok: true, value: typeof raw === 'string' ? raw : JSON.stringify(raw) };
  }
}

/** A number, or a decimal number written as text ('12', '-0.5', '1e3'); NaN otherwise ('0x10', '1,000'). */
function toNumber(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  const s = String(raw).trim();
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s) ? Number(s) : Number.NaN;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
