import { http } from '@mizan/sdk';

/** File name from a `Content-Disposition` header, if the server gave one. */
export function fileNameOf(disposition: string | undefined, fallback: string): string {
  const star = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (star) return decodeURIComponent(star);
  return disposition?.match(/filename="?([^";]+)"?/i)?.[1] ?? fallback;
}

/**
 * Downloads an authorised file: the call carries the token and fingerprint headers, which a
 * plain link cannot, so the body comes as a blob and is saved through a temporary object URL.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const response = await http.get<Blob>(url, { responseType: 'blob' });
  const disposition = response.headers['content-disposition'] as string | undefined;
  const href = URL.createObjectURL(response.data);
  try {
    const a = document.createElement('a');
    a.href = href;
    a.download = fileNameOf(disposition, fallbackName);
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // Revoke after the click has been handled so the browser has read the blob.
    setTimeout(() => URL.revokeObjectURL(href), 0);
  }
}
