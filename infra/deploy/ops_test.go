package deploy_test

import (
	"slices"
	"testing"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
)

// checkUsagePolicy holds a read-only function's second policy to one
// statement: UpdateItem on the table, only on usage partitions.
func checkUsagePolicy(t *testing.T, id string, p any) {
	t.Helper()
	stmts, _ := dig(p, "Statement").([]any)
	if len(stmts) != 1 {
		t.Errorf("%s: usage policy has %d statements, want 1", id, len(stmts))
		return
	}
	s := stmts[0]
	if dig(s, "Effect") != "Allow" || dig(s, "Action") != "dynamodb:UpdateItem" {
		t.Errorf("%s: usage statement %v, want Allow dynamodb:UpdateItem only", id, s)
	}
	if r := dig(s, "Resource"); !equalJSON(r, map[string]any{"Fn::GetAtt": []any{deploy.TableID, "Arn"}}) && !equalJSON(r, map[string]any{"Fn::GetAtt": deploy.TableID + ".Arn"}) {
		t.Errorf("%s: usage statement on %v, want the table", id, dig(s, "Resource"))
	}
	if keys := dig(s, "Condition", "ForAllValues:StringLike", "dynamodb:LeadingKeys"); !equalJSON(keys, []any{deploy.UsageLeadingKeys}) {
		t.Errorf("%s: usage statement's leading keys %v, want [%s]", id, keys, deploy.UsageLeadingKeys)
	}
}

// The Standings function only reads, yet counts its requests' usage: it is
// the one that needs the usage statement, and the Web function (pages) not.
func TestCountsUsage(t *testing.T) {
	if !deploy.CountsUsage(httpapi.FnStandings) || deploy.CountsUsage(httpapi.FnWeb) || deploy.CountsUsage(httpapi.FnGames) {
		t.Errorf("CountsUsage: Standings %v, Web %v, Games %v; want true, false, false",
			deploy.CountsUsage(httpapi.FnStandings), deploy.CountsUsage(httpapi.FnWeb), deploy.CountsUsage(httpapi.FnGames))
	}
}

// Tracing is a deploy parameter (Active or PassThrough, off by default)
// that every function takes through Globals.
func TestTemplate_TracingParameter(t *testing.T) {
	m := raw(t)
	p := dig(m, "Parameters", "Tracing")
	if p == nil {
		t.Fatal("no Tracing parameter")
	}
	values, _ := dig(p, "AllowedValues").([]any)
	if !equalJSON(values, []any{"Active", "PassThrough"}) || dig(p, "Default") != "PassThrough" || dig(p, "Type") != "String" {
		t.Errorf("Tracing parameter %v: want a String of Active or PassThrough, PassThrough by default", p)
	}
	if g := dig(m, "Globals", "Function", "Tracing"); !equalJSON(g, ref("Tracing")) {
		t.Errorf("Globals.Function.Tracing is %v, want !Ref Tracing", g)
	}
	for _, id := range deploy.AllFunctions() {
		if tr := dig(m, "Resources", id, "Properties", "Tracing"); tr != nil {
			t.Errorf("%s sets its own Tracing %v over the parameter", id, tr)
		}
	}
}

// The alarms: the HTTP API's 5xx share of requests over a threshold
// parameter, and any DynamoDB throttle on the table; both notify the SNS
// topic, which exists when an e-mail address is given.
func TestTemplate_Alarms(t *testing.T) {
	m := raw(t)
	if dig(m, "Parameters", "AlarmEmail", "Default") != "" {
		t.Errorf("AlarmEmail must be optional (default empty)")
	}
	if c := dig(m, "Conditions", "HasAlarmEmail"); c == nil {
		t.Errorf("no HasAlarmEmail condition")
	}
	topic := dig(m, "Resources", "AlarmTopic")
	if dig(topic, "Type") != "AWS::SNS::Topic" || dig(topic, "Condition") != "HasAlarmEmail" {
		t.Errorf("AlarmTopic %v: want an SNS topic under HasAlarmEmail", topic)
	}
	subs, _ := dig(topic, "Properties", "Subscription").([]any)
	if len(subs) != 1 || dig(subs[0], "Protocol") != "email" || !equalJSON(dig(subs[0], "Endpoint"), ref("AlarmEmail")) {
		t.Errorf("AlarmTopic subscription %v: want e-mail to !Ref AlarmEmail", subs)
	}

	type metric struct{ namespace, name, dimension string }
	alarmMetrics := func(id string) (expr string, metrics []metric) {
		a := dig(m, "Resources", id)
		if dig(a, "Type") != "AWS::CloudWatch::Alarm" {
			t.Fatalf("%s is %v, want AWS::CloudWatch::Alarm", id, dig(a, "Type"))
		}
		want := map[string]any{"Fn::If": []any{"HasAlarmEmail", []any{ref("AlarmTopic")}, ref("AWS::NoValue")}}
		if !equalJSON(dig(a, "Properties", "AlarmActions"), want) {
			t.Errorf("%s: AlarmActions %v, want the topic when there is one", id, dig(a, "Properties", "AlarmActions"))
		}
		if dig(a, "Properties", "TreatMissingData") != "notBreaching" {
			t.Errorf("%s: an idle stack (no data) must not alarm", id)
		}
		list, _ := dig(a, "Properties", "Metrics").([]any)
		returned := 0
		for _, q := range list {
			if dig(q, "ReturnData") == true {
				returned++
				expr, _ = dig(q, "Expression").(string)
				continue
			}
			dims, _ := dig(q, "MetricStat", "Metric", "Dimensions").([]any)
			d := ""
			if len(dims) == 1 {
				d, _ = dig(dims[0], "Name").(string)
			}
			metrics = append(metrics, metric{dig(q, "MetricStat", "Metric", "Namespace").(string), dig(q, "MetricStat", "Metric", "MetricName").(string), d})
			if s := dig(q, "MetricStat", "Stat"); s != "Sum" {
				t.Errorf("%s: %v, want Sum", id, s)
			}
		}
		if returned != 1 {
			t.Errorf("%s: %d returned series, want 1", id, returned)
		}
		return expr, metrics
	}

	expr, metrics := alarmMetrics("ApiErrorRateAlarm")
	if !slices.Contains(metrics, metric{"AWS/ApiGateway", "5xx", "ApiId"}) || !slices.Contains(metrics, metric{"AWS/ApiGateway", "Count", "ApiId"}) {
		t.Errorf("ApiErrorRateAlarm metrics %v: want the HTTP API's 5xx and Count", metrics)
	}
	if expr != "IF(requests > 0, 100 * errors / requests, 0)" {
		t.Errorf("ApiErrorRateAlarm expression %q: want the 5xx percentage of requests", expr)
	}
	if th := dig(m, "Resources", "ApiErrorRateAlarm", "Properties", "Threshold"); !equalJSON(th, ref("ErrorRatePercent")) {
		t.Errorf("ApiErrorRateAlarm threshold %v, want !Ref ErrorRatePercent", th)
	}
	for _, q := range dig(m, "Resources", "ApiErrorRateAlarm", "Properties", "Metrics").([]any) {
		for _, d := range asList(dig(q, "MetricStat", "Metric", "Dimensions")) {
			if !equalJSON(dig(d, "Value"), ref(deploy.ApiID)) {
				t.Errorf("ApiErrorRateAlarm dimension %v, want the HTTP API", d)
			}
		}
	}

	expr, metrics = alarmMetrics("TableThrottleAlarm")
	if !slices.Contains(metrics, metric{"AWS/DynamoDB", "ReadThrottleEvents", "TableName"}) || !slices.Contains(metrics, metric{"AWS/DynamoDB", "WriteThrottleEvents", "TableName"}) {
		t.Errorf("TableThrottleAlarm metrics %v: want the table's read and write throttle events", metrics)
	}
	if expr != "reads + writes" || dig(m, "Resources", "TableThrottleAlarm", "Properties", "Threshold") != 0.0 ||
		dig(m, "Resources", "TableThrottleAlarm", "Properties", "ComparisonOperator") != "GreaterThanThreshold" {
		t.Errorf("TableThrottleAlarm: want any throttle (reads + writes > 0)")
	}
	for _, q := range dig(m, "Resources", "TableThrottleAlarm", "Properties", "Metrics").([]any) {
		for _, d := range asList(dig(q, "MetricStat", "Metric", "Dimensions")) {
			if !equalJSON(dig(d, "Value"), ref(deploy.TableID)) {
				t.Errorf("TableThrottleAlarm dimension %v, want the table", d)
			}
		}
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }
