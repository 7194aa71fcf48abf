import { z } from 'zod';

/** `GET /api/files/:id`: a stored file (its row's `StoredFile` carries the id). */

export const fileParams = z.object({ id: z.string().meta({ description: 'Stored file id' }) });

/** `?download=1` sends the file as an attachment even when a browser could show it. */
export const fileDownloadQuery = z
  .object({ download: z.enum(['0', '1'], { error: 'validation.enum' }).optional() })
  .strip();
