import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { MAX_PAGE_SIZE, TASK_ROUTES, taskComments, type TaskComment } from '@mizan/contracts';
import { api, entityApi } from '@mizan/sdk';
import { commentKeys } from '../useTaskChannel';

/**
 * One task's comment thread, oldest first, a page of `MAX_PAGE_SIZE` at a time, with writing,
 * editing and deleting a comment; every write refreshes the thread (as the task's channel does
 * for everyone else's).
 */
export function useComments(taskId: number) {
  const queryClient = useQueryClient();
  const thread = useInfiniteQuery({
    queryKey: commentKeys.thread(taskId),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(
        TASK_ROUTES.comments,
        { params: { id: taskId }, query: { page: pageParam, pageSize: MAX_PAGE_SIZE } },
        { signal },
      ),
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: commentKeys.thread(taskId) });

  const create = useMutation({
    mutationFn: ({ body, files }: { body: string; files: File[] }) =>
      entityApi.create(taskComments, { taskId, body, files } as never),
    onSuccess: refresh,
  });
  const edit = useMutation({
    mutationFn: ({ comment, body }: { comment: TaskComment; body: string }) =>
      entityApi.update(taskComments, comment.id, { body, updatedAt: comment.updatedAt } as never),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (comment: TaskComment) =>
      api.call(TASK_ROUTES.deleteComment, { params: { id: taskId, commentId: comment.id } }),
    onSuccess: refresh,
  });

  const comments = thread.data?.pages.flatMap((page) => page.items) ?? [];
  return { thread, comments, create, edit, remove };
}
