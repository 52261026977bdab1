import { PageHeader } from "../../components/ui";

export function EditorPage() {
  return <PageHeader title="Test" />;
}
