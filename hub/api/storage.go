package api

import (
	"net/http"

	"github.com/testautomation/ta/hub/store"
)

// Storage used per project (issue 32, docs/retention.md), for platform
// administrators: what each project keeps, so they can tell where the
// space goes and set retention. A pruned run counts no bytes.

type storageJSON struct {
	Projects []projectStorageJSON `json:"projects"`
}

type projectStorageJSON struct {
	ProjectID   string `json:"projectId"`
	ProjectName string `json:"projectName"`
	OrgID       string `json:"orgId"`
	OrgName     string `json:"orgName"`
	// Runs counts the project's runs; PrunedRuns those of them whose
	// screenshots and trace retention removed.
	Runs       int64 `json:"runs"`
	PrunedRuns int64 `json:"prunedRuns"`
	// ArtifactBytes (screenshots and other artifacts) and TraceBytes
	// (traces) of its runs, FileBytes of its Files; TotalBytes sums them.
	ArtifactBytes int64 `json:"artifactBytes"`
	TraceBytes    int64 `json:"traceBytes"`
	Files         int64 `json:"files"`
	FileBytes     int64 `json:"fileBytes"`
	TotalBytes    int64 `json:"totalBytes"`
}

// storage answers GET /api/storage, the largest project first.
func (s *Server) storage(w http.ResponseWriter, r *http.Request) {
	if !platformAdminOf(w, r, "only platform administrators see the storage of every project") {
		return
	}
	list, err := s.store.Storage(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := storageJSON{Projects: make([]projectStorageJSON, 0, len(list))}
	for _, p := range list {
		out.Projects = append(out.Projects, toProjectStorage(p))
	}
	writeJSON(w, http.StatusOK, out)
}

func toProjectStorage(p store.ProjectStorage) projectStorageJSON {
	return projectStorageJSON{ProjectID: p.ProjectID, ProjectName: p.ProjectName, OrgID: p.OrgID, OrgName: p.OrgName,
		Runs: p.Runs, PrunedRuns: p.PrunedRuns, ArtifactBytes: p.ArtifactBytes, TraceBytes: p.TraceBytes,
		Files: p.Files, FileBytes: p.FileBytes, TotalBytes: p.ArtifactBytes + p.TraceBytes + p.FileBytes}
}

// platformAdminOf answers 403 with why unless the caller administers the
// platform.
func platformAdminOf(w http.ResponseWriter, r *http.Request, why string) bool {
	if u, _ := currentUser(r); u.PlatformAdmin {
		return true
	}
	writeError(w, http.StatusForbidden, codeForbidden, why)
	return false
}
