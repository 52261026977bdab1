import { PageHeader } from "../../components/ui";

export function TestListPage() {
  return <PageHeader title="Tests" />;
}
