import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { AccountSettingsPage } from '../features/account/account-settings.page.js';
import { AdminLayout } from '../features/admin/admin.layout.js';
import { AdminClassificationEditsListPage } from '../features/admin/classification-edits/classification-edits-list.page.js';
import { AdminClassificationEditViewPage } from '../features/admin/classification-edits/classification-edits-view.page.js';
import { AdminMetadataListPage } from '../features/admin/metadata/metadata-list.page.js';
import { AdminMetadataViewPage } from '../features/admin/metadata/metadata-view.page.js';
import { AdminProcessDataListPage } from '../features/admin/process-data/process-data-list.page.js';
import { AdminProcessDataViewPage } from '../features/admin/process-data/process-data-view.page.js';
import { AdminProjectViewPage } from '../features/admin/projects/project-view.page.js';
import { AdminProjectsListPage } from '../features/admin/projects/projects-list.page.js';
import { AdminSettingsPage } from '../features/admin/settings/settings.page.js';
import { AdminStatisticsPage } from '../features/admin/statistics/statistics.page.js';
import { AdminSubscriptionViewPage } from '../features/admin/subscriptions/subscription-view.page.js';
import { AdminSubscriptionsPage } from '../features/admin/subscriptions/subscriptions.page.js';
import { AdminTilingListPage } from '../features/admin/tiling/tiling-list.page.js';
import { AdminTilingViewPage } from '../features/admin/tiling/tiling-view.page.js';
import { AdminUserViewPage } from '../features/admin/users/user-view.page.js';
import { AdminUsersListPage } from '../features/admin/users/users-list.page.js';
import { ActivationPage } from '../features/auth/activation.page.js';
import { ForgotPasswordPage } from '../features/auth/forgot-password.page.js';
import { LoginPage } from '../features/auth/login.page.js';
import { RegisterPage } from '../features/auth/register.page.js';
import { ResetPasswordPage } from '../features/auth/reset-password.page.js';
import { BuyPage } from '../features/billing/buy.page.js';
import { BuyResultPage } from '../features/billing/buy-result.page.js';
import { SubscriptionPage } from '../features/billing/subscription.page.js';
import { CreateProjectPage } from '../features/projects/create-project.page.js';
import { MyProjectsPage } from '../features/projects/my-projects.page.js';
import { SharedProjectPage } from '../features/projects/shared-project.page.js';
import { ProjectViewerPage } from '../features/viewer/project-viewer.page.js';
import { RequireRole } from './guards.js';
import { NotFoundPage } from './not-found.page.js';
import { RootLayout } from './root-layout.js';
import { RouteError } from './route-error.js';
import type { RouteName } from './route-paths.js';

/** Route metadata: the spec's route name, for links and tests. */
export interface RouteHandle {
  name: RouteName;
}

const named = (name: RouteName): { handle: RouteHandle } => ({ handle: { name } });

/** Every route of spec §2 with its guard. Paths are relative to their parent. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/user" replace />, ...named('root') },
      {
        path: 'auth',
        children: [
          { index: true, element: <Navigate to="/auth/login" replace />, ...named('auth') },
          { path: 'login', element: <LoginPage />, ...named('auth_login') },
          { path: 'register', element: <RegisterPage />, ...named('auth_register') },
          { path: 'forgotPwd', element: <ForgotPasswordPage />, ...named('auth_forgotPwd') },
        ],
      },
      { path: 'project-from-share-token', element: <SharedProjectPage />, ...named('project_from_share_token') },
      { path: 'reset-password-token', element: <ResetPasswordPage />, ...named('reset_password_token') },
      { path: 'registration-token', element: <ActivationPage />, ...named('registration_token') },
      {
        path: 'user',
        element: <RequireRole roles={['user', 'admin']} />,
        children: [
          { index: true, element: <MyProjectsPage />, ...named('user') },
          { path: 'settings', element: <AccountSettingsPage />, ...named('user_settings') },
          { path: 'projects/new', element: <CreateProjectPage />, ...named('user_project_new') },
          { path: 'projects/:id', element: <ProjectViewerPage />, ...named('user_project_view') },
          { path: 'subscription', element: <SubscriptionPage />, ...named('user_subscription') },
          { path: 'subscription/buy', element: <BuyPage />, ...named('user_subscription_buy') },
          {
            path: 'subscription/buy/success',
            element: <BuyResultPage outcome="success" />,
            ...named('user_subscription_buy_success'),
          },
          {
            path: 'subscription/buy/cancel',
            element: <BuyResultPage outcome="cancel" />,
            ...named('user_subscription_buy_cancel'),
          },
        ],
      },
      {
        path: 'admin',
        element: <RequireRole roles={['admin']} />,
        children: [
          {
            element: <AdminLayout />,
            children: [
              { index: true, element: <Navigate to="/admin/projects/list" replace />, ...named('admin') },
              { path: 'statistics', element: <AdminStatisticsPage />, ...named('admin_statistics') },
              { path: 'settings', element: <AdminSettingsPage />, ...named('admin_settings') },
              { path: 'projects/list', element: <AdminProjectsListPage />, ...named('admin_projects_list') },
              { path: 'projects/view/:id', element: <AdminProjectViewPage />, ...named('admin_projects_view') },
              { path: 'process-data/list', element: <AdminProcessDataListPage />, ...named('admin_process_data_list') },
              {
                path: 'process-data/view/:id',
                element: <AdminProcessDataViewPage />,
                ...named('admin_process_data_view'),
              },
              { path: 'tiling/list', element: <AdminTilingListPage />, ...named('admin_tiling_list') },
              {
                path: 'tiling/view/:projectId/:tilingId',
                element: <AdminTilingViewPage />,
                ...named('admin_tiling_view'),
              },
              { path: 'metadata-processing/list', element: <AdminMetadataListPage />, ...named('admin_metadata_list') },
              {
                path: 'metadata-processing/view/:projectId/:metadataId',
                element: <AdminMetadataViewPage />,
                ...named('admin_metadata_view'),
              },
              {
                path: 'classification-edits/list',
                element: <AdminClassificationEditsListPage />,
                ...named('admin_classification_edits_list'),
              },
              {
                path: 'classification-edits/view/:projectId/:jobId',
                element: <AdminClassificationEditViewPage />,
                ...named('admin_classification_edits_view'),
              },
              { path: 'users/list', element: <AdminUsersListPage />, ...named('admin_users_list') },
              { path: 'users/view/:id', element: <AdminUserViewPage />, ...named('admin_users_view') },
              { path: 'subscriptions', element: <AdminSubscriptionsPage />, ...named('admin_subscriptions') },
              {
                path: 'subscriptions/view/:id',
                element: <AdminSubscriptionViewPage />,
                ...named('admin_subscriptions_view'),
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** The app's router: hash history (spec §2). */
export function createAppRouter() {
  return createHashRouter(routes);
}
