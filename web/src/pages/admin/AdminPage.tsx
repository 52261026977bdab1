import { PageHeader } from "../../components/ui";

export function AdminPage() {
  return <PageHeader title="Administration" />;
}
