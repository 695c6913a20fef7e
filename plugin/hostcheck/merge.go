package hostcheck

// Merge adds up the reports of several plugin processes a host started in
// one check: their steps, and each check's counts; the violations are the
// first maxViolations of all of them, in the order given.
func Merge(reports ...Report) Report {
	counts := map[string]*CheckResult{}
	out := Report{}
	for _, d := range descriptions {
		c := &CheckResult{Name: d.name, Description: d.text, Optional: optional[d.name]}
		counts[d.name] = c
	}
	for _, r := range reports {
		out.Steps += r.Steps
		for _, c := range r.Checks {
			if m, ok := counts[c.Name]; ok {
				m.Passed += c.Passed
				m.Failed += c.Failed
			}
		}
		for _, v := range r.Violations {
			if len(out.Violations) < maxViolations {
				out.Violations = append(out.Violations, v)
			}
		}
	}
	for _, d := range descriptions {
		out.Checks = append(out.Checks, *counts[d.name])
	}
	return out
}
