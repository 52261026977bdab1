package protocol

import (
	"encoding/json"
	"testing"
)

func TestDataBinding(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string // "path code"
		bind *DataBinding
	}{
		{"set", `{"set":"tds_aaaaaaaaaaaaaaaa"}`, nil, &DataBinding{Set: "tds_aaaaaaaaaaaaaaaa"}},
		{"pool defaults to lease", `{"pool":"dpl_aaaaaaaaaaaaaaaa"}`, nil, &DataBinding{Pool: "dpl_aaaaaaaaaaaaaaaa", Mode: PoolLease}},
		{"pool consume", `{"pool":"dpl_aaaaaaaaaaaaaaaa","mode":"consume"}`, nil, &DataBinding{Pool: "dpl_aaaaaaaaaaaaaaaa", Mode: PoolConsume}},
		{"empty object drops", `{}`, nil, nil},
		{"mode without pool", `{"mode":"lease"}`, []string{"data.mode conflict"}, nil},
		{"mode unknown", `{"pool":"dpl_aaaaaaaaaaaaaaaa","mode":"borrow"}`, []string{"data.mode enum"}, nil},
		{"wrong prefixes", `{"set":"dpl_x","pool":"tds_x"}`, []string{"data.pool format", "data.set format"}, nil},
		{"unknown member", `{"rows":[1]}`, []string{"data.rows unknown"}, nil},
		{"not an object", `"tds_x"`, []string{"data type"}, nil},
		{"set a number", `{"set":5}`, []string{"data.set type"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, _, issues := Parse([]byte(`{"dsl":2,"name":"t","data":` + tc.data + `,"steps":[]}`))
			var got []string
			for _, is := range issues {
				got = append(got, is.Path+" "+is.Code)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("issues %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("issues %v, want %v", got, tc.want)
				}
			}
			if tc.want != nil {
				return
			}
			if (doc.Data == nil) != (tc.bind == nil) || doc.Data != nil && *doc.Data != *tc.bind {
				t.Fatalf("data %+v, want %+v", doc.Data, tc.bind)
			}
			out, _ := json.Marshal(doc)
			again, _, issues := Parse(out)
			if len(issues) > 0 || (again.Data == nil) != (doc.Data == nil) || again.Data != nil && *again.Data != *doc.Data {
				t.Fatalf("round trip %s: %+v %v", out, again.Data, issues)
			}
		})
	}
}
