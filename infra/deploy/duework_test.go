package deploy_test

import (
	"slices"
	"testing"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/store"
)

// DueWork runs every minute on its EventBridge schedule, with no HTTP
// route, and may touch only the partitions its work lives in: it reads
// events, games, the work due and the mirrors' marks, and writes events,
// games, the views' stamps and the work due — never an idempotency record,
// an entry, a festival, a connection or a usage counter.
func TestTemplate_DueWork(t *testing.T) {
	m := raw(t)
	fn := dig(m, "Resources", deploy.FnDueWork)
	if dig(fn, "Type") != "AWS::Serverless::Function" {
		t.Fatalf("template.yaml has no function %s", deploy.FnDueWork)
	}
	events, _ := dig(fn, "Properties", "Events").(map[string]any)
	if len(events) != 1 {
		t.Fatalf("%s: %d events, want the one schedule: %v", deploy.FnDueWork, len(events), events)
	}
	for name, ev := range events {
		if dig(ev, "Type") != "Schedule" || dig(ev, "Properties", "Schedule") != "rate(1 minute)" {
			t.Errorf("%s event %s: %v, want Schedule rate(1 minute)", deploy.FnDueWork, name, ev)
		}
	}
	policies, _ := dig(fn, "Properties", "Policies").([]any)
	if len(policies) != 1 {
		t.Fatalf("%s: %d policies, want one statement list", deploy.FnDueWork, len(policies))
	}
	stmts, _ := dig(policies[0], "Statement").([]any)
	if len(stmts) != 2 {
		t.Fatalf("%s: %d statements, want reads and writes: %v", deploy.FnDueWork, len(stmts), stmts)
	}
	table := map[string]any{"Fn::GetAtt": deploy.TableID + ".Arn"}
	want := []struct {
		actions []any
		keys    []string
	}{
		{[]any{"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"},
			[]string{store.TournamentPrefix + "*", store.GamePrefix + "*", store.ViewPrefix + "*", store.DuePrefix + "*", store.MirrorPrefix + "*"}},
		{[]any{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"},
			[]string{store.TournamentPrefix + "*", store.GamePrefix + "*", store.ViewPrefix + "*", store.DuePrefix + "*"}},
	}
	for i, w := range want {
		s := stmts[i]
		if dig(s, "Effect") != "Allow" || !equalJSON(dig(s, "Action"), w.actions) {
			t.Errorf("%s statement %d: %v, want Allow %v", deploy.FnDueWork, i, s, w.actions)
		}
		if r := dig(s, "Resource"); !equalJSON(r, table) && !equalJSON(r, map[string]any{"Fn::GetAtt": []any{deploy.TableID, "Arn"}}) {
			t.Errorf("%s statement %d on %v, want the table alone", deploy.FnDueWork, i, r)
		}
		keys, _ := dig(s, "Condition", "ForAllValues:StringLike", "dynamodb:LeadingKeys").([]any)
		var got []string
		for _, k := range keys {
			got = append(got, k.(string))
		}
		if !slices.Equal(got, w.keys) {
			t.Errorf("%s statement %d: leading keys %v, want %v", deploy.FnDueWork, i, got, w.keys)
		}
	}
	if to := dig(fn, "Properties", "Timeout"); to != float64(deploy.TimeoutS[deploy.FnDueWork]) || to == 0.0 {
		t.Errorf("%s: Timeout %v, want deploy.TimeoutS's %d", deploy.FnDueWork, to, deploy.TimeoutS[deploy.FnDueWork])
	}
	if !slices.Contains(deploy.AllFunctions(), deploy.FnDueWork) {
		t.Errorf("deploy.AllFunctions lacks %s: the smoke and the build would miss it", deploy.FnDueWork)
	}
}
