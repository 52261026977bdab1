import { PageHeader } from "../../components/ui";

export function VersionsPage() {
  return <PageHeader title="Version history" />;
}
