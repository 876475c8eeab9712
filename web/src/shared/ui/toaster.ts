import { OverlayToaster, Position, type Toaster, type ToastProps } from '@blueprintjs/core';

let toaster: Promise<Toaster> | null = null;

/** Shows a toast at the top of the page (created on first use). */
export async function showToast(props: ToastProps): Promise<void> {
  toaster ??= OverlayToaster.createAsync({ position: Position.TOP });
  (await toaster).show({ timeout: 5000, ...props });
}
