// Package labtest holds what the labs' tests share, so each lab's tests
// keep only what is the lab's own: running a lab on virtual time in a
// synctest bubble (RunInBubble, CancelMidRun), checking a declaration and
// its refusals (CheckDeclaration, ExpectRefusals), running and logging
// presets for figures (PresetFinals, RunPresetsOnWallClock), the house
// rules for units and grouped thousands (CheckUnits, CheckGrouping), a fake
// support desk, and browser tests: serving every lab's journey in one web
// app and one headless Chromium, a tab each (BrowseLabs), and playing a
// lab's presets there (PlayPresets).
// Only tests import it.
package labtest
