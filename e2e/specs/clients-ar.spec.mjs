// The clients area in Arabic: client form, folded search, record page, power of attorney with
// files from the client's tab, inline PDF preview, file deletion, expiry flags, conflict warning
// (see lib/clients.mjs).
import { clientsSpec } from '../lib/clients.mjs';

clientsSpec('ar');
