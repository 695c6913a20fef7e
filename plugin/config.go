package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
)

// knownOptions lists every option, sorted, for the unknown-option error.
func knownOptions() []string {
	return []string{contract.OptionCatalogBudget, contract.OptionDescriptionMaxLength, contract.OptionInvocationArguments, contract.OptionInvocationForm,
		contract.OptionReattachBudget, contract.OptionReattachSkillMaxLength,
		contract.OptionRelevantSkills, contract.OptionResourceTool, contract.OptionSearchTool, contract.OptionUserInvocation}
}

// defaultConfig returns the configuration used when the host passes none,
// with every default written out.
func defaultConfig() contract.MountOptions {
	return contract.MountOptions{DescriptionMaxLength: render.DefaultDescriptionMaxLength, CatalogBudget: contract.DefaultCatalogBudget}
}

// ParseConfig validates a JSON object of plugin options (the form of
// contract.MountOptions.JSON, or a non-Go host's own) and returns it with
// every default written out. An empty string means all defaults. Errors
// name the option and its bound.
func ParseConfig(raw string) (contract.MountOptions, error) {
	cfg := defaultConfig()
	if strings.TrimSpace(raw) == "" {
		return cfg, nil
	}
	opts, err := decodeOptions(raw)
	if err != nil {
		return cfg, err
	}
	if v, ok := opts[contract.OptionDescriptionMaxLength]; ok {
		n, err := parseMinInt(v, render.MinDescriptionMaxLength)
		switch {
		case errors.Is(err, errTooLarge):
			return cfg, fmt.Errorf("%s must be an integer from %d to %d, got %s", contract.OptionDescriptionMaxLength, render.MinDescriptionMaxLength, math.MaxInt32, compactJSON(v))
		case err != nil:
			return cfg, fmt.Errorf("%s must be an integer >= %d, got %s", contract.OptionDescriptionMaxLength, render.MinDescriptionMaxLength, compactJSON(v))
		}
		cfg.DescriptionMaxLength = n
	}
	if err := boolOption(opts, contract.OptionUserInvocation, &cfg.UserInvocation); err != nil {
		return cfg, err
	}
	if v, ok := opts[contract.OptionCatalogBudget]; ok {
		n, err := parseMinInt(v, 0)
		if err != nil || (n > 0 && n < render.MinCatalogBudget) {
			return cfg, fmt.Errorf("%s must be 0 (no budget) or an integer from %d to %d, got %s", contract.OptionCatalogBudget, render.MinCatalogBudget, math.MaxInt32, compactJSON(v))
		}
		cfg.CatalogBudget = n
		if n == 0 {
			cfg.CatalogBudget = contract.NoCatalogBudget
		}
	}
	if err := boolOption(opts, contract.OptionResourceTool, &cfg.ResourceTool); err != nil {
		return cfg, err
	}
	if err := boolOption(opts, contract.OptionInvocationArguments, &cfg.InvocationArguments); err != nil {
		return cfg, err
	}
	if _, ok := opts[contract.OptionInvocationArguments]; ok {
		if cfg.InvocationArguments && !cfg.UserInvocation {
			return cfg, fmt.Errorf("%s needs %s: true (arguments are what the user writes after /name)", contract.OptionInvocationArguments, contract.OptionUserInvocation)
		}
	}
	if err := boolOption(opts, contract.OptionSearchTool, &cfg.SearchTool); err != nil {
		return cfg, err
	}
	if v, ok := opts[contract.OptionRelevantSkills]; ok {
		modes := []string{contract.RelevantAuto, contract.RelevantOn, contract.RelevantOff}
		if err := json.Unmarshal(v, &cfg.RelevantSkills); err != nil || !slices.Contains(modes, cfg.RelevantSkills) {
			return cfg, fmt.Errorf("%s must be %q, %q or %q, got %s", contract.OptionRelevantSkills, modes[0], modes[1], modes[2], compactJSON(v))
		}
		if cfg.RelevantSkills == contract.RelevantAuto {
			cfg.RelevantSkills = "" // the default, as a Go host writes it
		}
	}
	if err := reattachOptions(opts, &cfg); err != nil {
		return cfg, err
	}
	if v, ok := opts[contract.OptionInvocationForm]; ok {
		forms := []string{contract.InvocationSlash, contract.InvocationDollar, contract.InvocationBoth}
		if err := json.Unmarshal(v, &cfg.InvocationForm); err != nil || !slices.Contains(forms, cfg.InvocationForm) {
			return cfg, fmt.Errorf("%s must be %q, %q or %q, got %s", contract.OptionInvocationForm, forms[0], forms[1], forms[2], compactJSON(v))
		}
		if cfg.InvocationForm != contract.InvocationSlash && !cfg.UserInvocation {
			return cfg, fmt.Errorf("%s needs %s: true (the form is how the user invokes a skill)", contract.OptionInvocationForm, contract.OptionUserInvocation)
		}
		if cfg.InvocationForm == contract.InvocationSlash {
			cfg.InvocationForm = "" // the default, as a Go host writes it
		}
	}
	return cfg, nil
}

// reattachOptions sets the re-attachment bounds of opts, when it has them:
// the total is 0 (off) or at least contract.MinReattachLength, as is each
// skill's.
func reattachOptions(opts map[string]json.RawMessage, cfg *contract.MountOptions) error {
	if v, ok := opts[contract.OptionReattachBudget]; ok {
		n, err := parseMinInt(v, 0)
		if err != nil || (n > 0 && n < contract.MinReattachLength) {
			return fmt.Errorf("%s must be 0 (attach nothing again) or an integer from %d to %d, got %s", contract.OptionReattachBudget, contract.MinReattachLength, math.MaxInt32, compactJSON(v))
		}
		cfg.ReattachBudget = n
		if n == 0 {
			cfg.ReattachBudget = contract.NoReattach
		}
	}
	if v, ok := opts[contract.OptionReattachSkillMaxLength]; ok {
		n, err := parseMinInt(v, contract.MinReattachLength)
		if err != nil {
			return fmt.Errorf("%s must be an integer from %d to %d, got %s", contract.OptionReattachSkillMaxLength, contract.MinReattachLength, math.MaxInt32, compactJSON(v))
		}
		cfg.ReattachSkillMaxLength = n
	}
	return nil
}

// decodeOptions decodes a JSON object of options, refusing anything else
// and any option it does not know (the first in sorted order).
func decodeOptions(raw string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var opts map[string]json.RawMessage
	if err := dec.Decode(&opts); err != nil || opts == nil {
		return nil, fmt.Errorf("plugin configuration must be a JSON object of options")
	}
	if dec.More() {
		return nil, fmt.Errorf("plugin configuration must be a single JSON object")
	}
	var unknown []string
	for k := range opts {
		if !slices.Contains(knownOptions(), k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("unknown plugin option %q (known options: %s)", unknown[0], strings.Join(knownOptions(), ", "))
	}
	return opts, nil
}

// boolOption sets *dst to the boolean option name of opts, when opts has
// it, and refuses anything but true or false.
func boolOption(opts map[string]json.RawMessage, name string, dst *bool) error {
	v, ok := opts[name]
	if !ok {
		return nil
	}
	if err := json.Unmarshal(v, dst); err != nil || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return fmt.Errorf("%s must be true or false, got %s", name, compactJSON(v))
	}
	return nil
}

// parseMinInt accepts a JSON number with an integral value of at least min
// that fits an int (1e3 and 500.0 are integers; 2.5, "500" and true are not).
func parseMinInt(v json.RawMessage, min int) (int, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return 0, fmt.Errorf("not a number")
	}
	var num json.Number
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	if err := dec.Decode(&num); err != nil {
		return 0, err
	}
	f, err := num.Float64()
	switch {
	case (err != nil || math.IsInf(f, 1)) && !strings.ContainsAny(num.String(), "-.") && !strings.Contains(num.String(), "e-"):
		return 0, errTooLarge // a huge integral literal
	case err != nil || math.IsNaN(f) || f != math.Trunc(f) || f < float64(min):
		return 0, fmt.Errorf("not an integer >= %d", min)
	case f > math.MaxInt32:
		return 0, errTooLarge
	}
	return int(f), nil
}

// errTooLarge marks an integer beyond the cap's upper bound.
var errTooLarge = errors.New("too large")

func compactJSON(v json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return string(v)
	}
	s := b.String()
	if len(s) > 64 {
		s = s[:61] + "..."
	}
	return s
}
