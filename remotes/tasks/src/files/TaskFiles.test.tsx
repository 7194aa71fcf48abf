import { fireEvent, screen, waitFor } from '@testing-library/react';
import { startApiServer } from '@mizan/sdk/testing/apiServer';
import { captureToasts, pointSdkAt, renderAt, signIn } from '@mizan/ui/testing/render';
import { TASK } from '../test/fixtures';
import { TaskFiles } from './TaskFiles';

const UPLOAD = `/api/admin/lawsuits/tasks/${TASK.id}/attachments`;

async function chooseFiles(...files: File[]) {
  renderAt('/task', <TaskFiles task={TASK} />);
  await screen.findByRole('button', { name: /إضافة ملفات/ });
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files } });
}

describe('task files', () => {
  it('sends a chosen file at once as multipart `files` and says it was added', async () => {
    const stored = { id: 91, originalName: 'حكم أول درجة.pdf', mimeType: 'application/pdf', size: 8 };
    const server = await startApiServer({
      [`POST ${UPLOAD}`]: { body: { data: { ...TASK, files: [stored] } } },
    });
    pointSdkAt(server.url);
    signIn(['tasks.view', 'tasks.update']);
    const toasts = captureToasts();
    try {
      await chooseFiles(new File(['%PDF-1.4'], 'حكم أول درجة.pdf', { type: 'application/pdf' }));

      await waitFor(() => expect(toasts.success).toEqual(['أُضيف ملف واحد']));
      const [sent] = server.calls('POST', UPLOAD);
      expect(sent!.contentType).toMatch(/^multipart\/form-data/);
      expect(sent!.body).toContain('name="files"; filename="حكم أول درجة.pdf"');
    } finally {
      await server.close();
    }
  });

  it('refuses a file of another type before sending anything', async () => {
    const server = await startApiServer({});
    pointSdkAt(server.url);
    signIn(['tasks.view', 'tasks.update']);
    try {
      await chooseFiles(new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }));

      expect(await screen.findByRole('alert')).toHaveTextContent('setup.exe');
      expect(server.seen).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
