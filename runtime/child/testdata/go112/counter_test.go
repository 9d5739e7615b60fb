package counter

func TestDoesNotCompile(t *testing.T) { undefined() }
