// Routes of the web application. Pages that act on a project sit inside
// RequireProject; sign-in pages sit outside the signed-in layout.
import { useState } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createBrowserRouter, Navigate, Route, RouterProvider, Routes } from "react-router";
import { ApiError } from "./api";
import { Layout, RequireAuth, RequireProject } from "./components/Layout";
import { ForgotPage, LoginPage, RegisterPage, ResetPage } from "./pages/auth/AuthPages";
import { TestListPage } from "./pages/tests/TestListPage";
import { VersionsPage } from "./pages/tests/VersionsPage";
import { EditorPage } from "./pages/editor/EditorPage";
import { RunsPage } from "./pages/runs/RunsPage";
import { RunPage } from "./pages/runs/RunPage";
import { BatchPage } from "./pages/batches/BatchPage";
import { DashboardPage } from "./pages/dashboard/DashboardPage";
import { ProfilePage } from "./pages/profile/ProfilePage";
import { EnvironmentsPage } from "./pages/environments/EnvironmentsPage";
import { ApplicationsPage } from "./pages/applications/ApplicationsPage";
import { WebhooksPage } from "./pages/webhooks/WebhooksPage";
import { SuitesPage } from "./pages/suites/SuitesPage";
import { SchedulesPage } from "./pages/schedules/SchedulesPage";
import { AgentsPage } from "./pages/agents/AgentsPage";
import { PairPage } from "./pages/agents/PairPage";
import { AdminPage } from "./pages/admin/AdminPage";
import { ComponentsPage } from "./pages/components/ComponentsPage";
import { ComponentPage } from "./pages/components/ComponentPage";
import { NewComponentPage, PublishVersionPage } from "./pages/components/ComponentEditorPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { TestDataPage } from "./pages/data/TestDataPage";
import { DataSetPage } from "./pages/data/DataSetPage";
import { DataPoolsPage } from "./pages/data/DataPoolsPage";
import { DataPoolPage } from "./pages/data/DataPoolPage";
import { FilesPage } from "./pages/files/FilesPage";

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // 4xx answers are final; only a network failure or 5xx is worth one more try.
        retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/forgot" element={<ForgotPage />} />
      <Route path="/reset" element={<ResetPage />} />
      <Route element={<RequireAuth />}>
        <Route element={<Layout />}>
          <Route path="/pair/:code" element={<PairPage />} />
          <Route path="/agents" element={<AgentsPage />} />
          <Route path="/profile" element={<ProfilePage />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="/runs/:id" element={<RunPage />} />
          <Route path="/batches/:id" element={<BatchPage />} />
          <Route path="/tests/:id" element={<EditorPage />} />
          <Route path="/tests/:id/versions" element={<VersionsPage />} />
          <Route element={<RequireProject />}>
            <Route path="/" element={<DashboardPage />} />
            <Route path="/dashboard" element={<Navigate to="/" replace />} />
            <Route path="/tests" element={<TestListPage />} />
            <Route path="/runs" element={<RunsPage />} />
            <Route path="/environments" element={<EnvironmentsPage />} />
            <Route path="/applications" element={<ApplicationsPage />} />
            <Route path="/webhooks" element={<WebhooksPage />} />
            <Route path="/suites" element={<SuitesPage />} />
            <Route path="/schedules" element={<SchedulesPage />} />
            <Route path="/components" element={<ComponentsPage />} />
            <Route path="/components/new" element={<NewComponentPage />} />
            <Route path="/components/:id" element={<ComponentPage />} />
            <Route path="/components/:id/publish" element={<PublishVersionPage />} />
            <Route path="/test-data" element={<TestDataPage />} />
            <Route path="/test-data/:id" element={<DataSetPage />} />
            <Route path="/data-pools" element={<DataPoolsPage />} />
            <Route path="/data-pools/:id" element={<DataPoolPage />} />
            <Route path="/files" element={<FilesPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}

// A data router, so a page can hold navigation while it has unsaved work (useBlocker).
function makeRouter() {
  return createBrowserRouter([{ path: "*", element: <AppRoutes /> }]);
}

export function App() {
  const [client] = useState(makeQueryClient);
  const [router] = useState(makeRouter);
  return (
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
