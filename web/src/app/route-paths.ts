/**
 * Named routes of spec §2 (hash history). The guard sends unauthenticated
 * users to `auth_login`.
 */
export const ROUTES = {
  root: '/',
  auth: '/auth',
  auth_login: '/auth/login',
  auth_register: '/auth/register',
  auth_forgotPwd: '/auth/forgotPwd',
  project_from_share_token: '/project-from-share-token',
  reset_password_token: '/reset-password-token',
  registration_token: '/registration-token',
  user: '/user',
  user_settings: '/user/settings',
  user_project_new: '/user/projects/new',
  user_project_view: '/user/projects/:id',
  user_subscription: '/user/subscription',
  user_subscription_buy: '/user/subscription/buy',
  user_subscription_buy_success: '/user/subscription/buy/success',
  user_subscription_buy_cancel: '/user/subscription/buy/cancel',
  admin: '/admin',
  admin_statistics: '/admin/statistics',
  admin_settings: '/admin/settings',
  admin_projects_list: '/admin/projects/list',
  admin_projects_view: '/admin/projects/view/:id',
  admin_process_data_list: '/admin/process-data/list',
  admin_process_data_view: '/admin/process-data/view/:id',
  admin_tiling_list: '/admin/tiling/list',
  admin_tiling_view: '/admin/tiling/view/:projectId/:tilingId',
  admin_metadata_list: '/admin/metadata-processing/list',
  admin_metadata_view: '/admin/metadata-processing/view/:projectId/:metadataId',
  admin_classification_edits_list: '/admin/classification-edits/list',
  admin_classification_edits_view: '/admin/classification-edits/view/:projectId/:jobId',
  admin_users_list: '/admin/users/list',
  admin_users_view: '/admin/users/view/:id',
  admin_subscriptions: '/admin/subscriptions',
  admin_subscriptions_view: '/admin/subscriptions/view/:id',
} as const;

export type RouteName = keyof typeof ROUTES;

/** The path of a named route with its parameters filled in. */
export function routePath(name: RouteName, params: Record<string, string | number> = {}): string {
  return ROUTES[name].replace(/:(\w+)/g, (_, key: string) => {
    const v = params[key];
    if (v === undefined) throw new Error(`route ${name} needs the parameter ${key}`);
    return encodeURIComponent(String(v));
  });
}

/**
 * Where the guard sends a visitor who may not see `fullPath`: the login page,
 * with the original path as `goBackToRouteFullPath` when it is a purchase
 * path (contains "buy"), and `reason=forbidden` for a logged-in user without the role.
 */
export function loginRedirect(fullPath: string, forbidden = false): string {
  const q = new URLSearchParams();
  if (fullPath.includes('buy')) q.set('goBackToRouteFullPath', fullPath);
  if (forbidden) q.set('reason', 'forbidden');
  const qs = q.toString();
  return qs ? `${ROUTES.auth_login}?${qs}` : ROUTES.auth_login;
}

/**
 * Where to go after a login: `goBackToRouteFullPath` when it is an app path
 * (never another origin), else the user page.
 */
export function afterLoginPath(goBack: string | null | undefined): string {
  if (goBack?.startsWith('/') && !goBack.startsWith('//') && !goBack.startsWith('/\\')) return goBack;
  return ROUTES.user;
}
