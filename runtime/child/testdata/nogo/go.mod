module example.com/nogo
