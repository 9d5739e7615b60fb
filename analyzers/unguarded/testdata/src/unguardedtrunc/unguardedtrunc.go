// Package unguardedtrunc has a method whose summary is cut at its size
// limit (T.Big): unguarded says nothing of T's fields, neither of those
// the summary shows (Big's write of last without the lock that Last and
// Set hold; g, which Big reads under the lock and PeekG reads without it)
// nor of those it may have lost (f299, which Peek reads without the lock
// that Tail and Bump hold). What the summary lost may make the guard
// inferred wrong: Big's last write of g, without the lock, is lost, and
// g is then guarded by no lock. S, the same type with a whole summary,
// is reported.
package unguardedtrunc

import "sync"

// T has a method too long to summarise whole.
type T struct {
	mu   sync.Mutex
	f0   int
	f1   int
	f2   int
	f3   int
	f4   int
	f5   int
	f6   int
	f7   int
	f8   int
	f9   int
	f10  int
	f11  int
	f12  int
	f13  int
	f14  int
	f15  int
	f16  int
	f17  int
	f18  int
	f19  int
	f20  int
	f21  int
	f22  int
	f23  int
	f24  int
	f25  int
	f26  int
	f27  int
	f28  int
	f29  int
	f30  int
	f31  int
	f32  int
	f33  int
	f34  int
	f35  int
	f36  int
	f37  int
	f38  int
	f39  int
	f40  int
	f41  int
	f42  int
	f43  int
	f44  int
	f45  int
	f46  int
	f47  int
	f48  int
	f49  int
	f50  int
	f51  int
	f52  int
	f53  int
	f54  int
	f55  int
	f56  int
	f57  int
	f58  int
	f59  int
	f60  int
	f61  int
	f62  int
	f63  int
	f64  int
	f65  int
	f66  int
	f67  int
	f68  int
	f69  int
	f70  int
	f71  int
	f72  int
	f73  int
	f74  int
	f75  int
	f76  int
	f77  int
	f78  int
	f79  int
	f80  int
	f81  int
	f82  int
	f83  int
	f84  int
	f85  int
	f86  int
	f87  int
	f88  int
	f89  int
	f90  int
	f91  int
	f92  int
	f93  int
	f94  int
	f95  int
	f96  int
	f97  int
	f98  int
	f99  int
	f100 int
	f101 int
	f102 int
	f103 int
	f104 int
	f105 int
	f106 int
	f107 int
	f108 int
	f109 int
	f110 int
	f111 int
	f112 int
	f113 int
	f114 int
	f115 int
	f116 int
	f117 int
	f118 int
	f119 int
	f120 int
	f121 int
	f122 int
	f123 int
	f124 int
	f125 int
	f126 int
	f127 int
	f128 int
	f129 int
	f130 int
	f131 int
	f132 int
	f133 int
	f134 int
	f135 int
	f136 int
	f137 int
	f138 int
	f139 int
	f140 int
	f141 int
	f142 int
	f143 int
	f144 int
	f145 int
	f146 int
	f147 int
	f148 int
	f149 int
	f150 int
	f151 int
	f152 int
	f153 int
	f154 int
	f155 int
	f156 int
	f157 int
	f158 int
	f159 int
	f160 int
	f161 int
	f162 int
	f163 int
	f164 int
	f165 int
	f166 int
	f167 int
	f168 int
	f169 int
	f170 int
	f171 int
	f172 int
	f173 int
	f174 int
	f175 int
	f176 int
	f177 int
	f178 int
	f179 int
	f180 int
	f181 int
	f182 int
	f183 int
	f184 int
	f185 int
	f186 int
	f187 int
	f188 int
	f189 int
	f190 int
	f191 int
	f192 int
	f193 int
	f194 int
	f195 int
	f196 int
	f197 int
	f198 int
	f199 int
	f200 int
	f201 int
	f202 int
	f203 int
	f204 int
	f205 int
	f206 int
	f207 int
	f208 int
	f209 int
	f210 int
	f211 int
	f212 int
	f213 int
	f214 int
	f215 int
	f216 int
	f217 int
	f218 int
	f219 int
	f220 int
	f221 int
	f222 int
	f223 int
	f224 int
	f225 int
	f226 int
	f227 int
	f228 int
	f229 int
	f230 int
	f231 int
	f232 int
	f233 int
	f234 int
	f235 int
	f236 int
	f237 int
	f238 int
	f239 int
	f240 int
	f241 int
	f242 int
	f243 int
	f244 int
	f245 int
	f246 int
	f247 int
	f248 int
	f249 int
	f250 int
	f251 int
	f252 int
	f253 int
	f254 int
	f255 int
	f256 int
	f257 int
	f258 int
	f259 int
	f260 int
	f261 int
	f262 int
	f263 int
	f264 int
	f265 int
	f266 int
	f267 int
	f268 int
	f269 int
	f270 int
	f271 int
	f272 int
	f273 int
	f274 int
	f275 int
	f276 int
	f277 int
	f278 int
	f279 int
	f280 int
	f281 int
	f282 int
	f283 int
	f284 int
	f285 int
	f286 int
	f287 int
	f288 int
	f289 int
	f290 int
	f291 int
	f292 int
	f293 int
	f294 int
	f295 int
	f296 int
	f297 int
	f298 int
	f299 int
	last int
	g    int
}

// Big writes last without the lock, reads g under the lock, reads every
// field, and writes the last one and g without the lock, accesses its
// summary loses.
func (t *T) Big() int {
	t.last = 1 // not reported: T has a cut summary
	t.mu.Lock()
	g := t.g
	t.mu.Unlock()
	n := 0
	n += t.f0
	n += t.f1
	n += t.f2
	n += t.f3
	n += t.f4
	n += t.f5
	n += t.f6
	n += t.f7
	n += t.f8
	n += t.f9
	n += t.f10
	n += t.f11
	n += t.f12
	n += t.f13
	n += t.f14
	n += t.f15
	n += t.f16
	n += t.f17
	n += t.f18
	n += t.f19
	n += t.f20
	n += t.f21
	n += t.f22
	n += t.f23
	n += t.f24
	n += t.f25
	n += t.f26
	n += t.f27
	n += t.f28
	n += t.f29
	n += t.f30
	n += t.f31
	n += t.f32
	n += t.f33
	n += t.f34
	n += t.f35
	n += t.f36
	n += t.f37
	n += t.f38
	n += t.f39
	n += t.f40
	n += t.f41
	n += t.f42
	n += t.f43
	n += t.f44
	n += t.f45
	n += t.f46
	n += t.f47
	n += t.f48
	n += t.f49
	n += t.f50
	n += t.f51
	n += t.f52
	n += t.f53
	n += t.f54
	n += t.f55
	n += t.f56
	n += t.f57
	n += t.f58
	n += t.f59
	n += t.f60
	n += t.f61
	n += t.f62
	n += t.f63
	n += t.f64
	n += t.f65
	n += t.f66
	n += t.f67
	n += t.f68
	n += t.f69
	n += t.f70
	n += t.f71
	n += t.f72
	n += t.f73
	n += t.f74
	n += t.f75
	n += t.f76
	n += t.f77
	n += t.f78
	n += t.f79
	n += t.f80
	n += t.f81
	n += t.f82
	n += t.f83
	n += t.f84
	n += t.f85
	n += t.f86
	n += t.f87
	n += t.f88
	n += t.f89
	n += t.f90
	n += t.f91
	n += t.f92
	n += t.f93
	n += t.f94
	n += t.f95
	n += t.f96
	n += t.f97
	n += t.f98
	n += t.f99
	n += t.f100
	n += t.f101
	n += t.f102
	n += t.f103
	n += t.f104
	n += t.f105
	n += t.f106
	n += t.f107
	n += t.f108
	n += t.f109
	n += t.f110
	n += t.f111
	n += t.f112
	n += t.f113
	n += t.f114
	n += t.f115
	n += t.f116
	n += t.f117
	n += t.f118
	n += t.f119
	n += t.f120
	n += t.f121
	n += t.f122
	n += t.f123
	n += t.f124
	n += t.f125
	n += t.f126
	n += t.f127
	n += t.f128
	n += t.f129
	n += t.f130
	n += t.f131
	n += t.f132
	n += t.f133
	n += t.f134
	n += t.f135
	n += t.f136
	n += t.f137
	n += t.f138
	n += t.f139
	n += t.f140
	n += t.f141
	n += t.f142
	n += t.f143
	n += t.f144
	n += t.f145
	n += t.f146
	n += t.f147
	n += t.f148
	n += t.f149
	n += t.f150
	n += t.f151
	n += t.f152
	n += t.f153
	n += t.f154
	n += t.f155
	n += t.f156
	n += t.f157
	n += t.f158
	n += t.f159
	n += t.f160
	n += t.f161
	n += t.f162
	n += t.f163
	n += t.f164
	n += t.f165
	n += t.f166
	n += t.f167
	n += t.f168
	n += t.f169
	n += t.f170
	n += t.f171
	n += t.f172
	n += t.f173
	n += t.f174
	n += t.f175
	n += t.f176
	n += t.f177
	n += t.f178
	n += t.f179
	n += t.f180
	n += t.f181
	n += t.f182
	n += t.f183
	n += t.f184
	n += t.f185
	n += t.f186
	n += t.f187
	n += t.f188
	n += t.f189
	n += t.f190
	n += t.f191
	n += t.f192
	n += t.f193
	n += t.f194
	n += t.f195
	n += t.f196
	n += t.f197
	n += t.f198
	n += t.f199
	n += t.f200
	n += t.f201
	n += t.f202
	n += t.f203
	n += t.f204
	n += t.f205
	n += t.f206
	n += t.f207
	n += t.f208
	n += t.f209
	n += t.f210
	n += t.f211
	n += t.f212
	n += t.f213
	n += t.f214
	n += t.f215
	n += t.f216
	n += t.f217
	n += t.f218
	n += t.f219
	n += t.f220
	n += t.f221
	n += t.f222
	n += t.f223
	n += t.f224
	n += t.f225
	n += t.f226
	n += t.f227
	n += t.f228
	n += t.f229
	n += t.f230
	n += t.f231
	n += t.f232
	n += t.f233
	n += t.f234
	n += t.f235
	n += t.f236
	n += t.f237
	n += t.f238
	n += t.f239
	n += t.f240
	n += t.f241
	n += t.f242
	n += t.f243
	n += t.f244
	n += t.f245
	n += t.f246
	n += t.f247
	n += t.f248
	n += t.f249
	n += t.f250
	n += t.f251
	n += t.f252
	n += t.f253
	n += t.f254
	n += t.f255
	n += t.f256
	n += t.f257
	n += t.f258
	n += t.f259
	n += t.f260
	n += t.f261
	n += t.f262
	n += t.f263
	n += t.f264
	n += t.f265
	n += t.f266
	n += t.f267
	n += t.f268
	n += t.f269
	n += t.f270
	n += t.f271
	n += t.f272
	n += t.f273
	n += t.f274
	n += t.f275
	n += t.f276
	n += t.f277
	n += t.f278
	n += t.f279
	n += t.f280
	n += t.f281
	n += t.f282
	n += t.f283
	n += t.f284
	n += t.f285
	n += t.f286
	n += t.f287
	n += t.f288
	n += t.f289
	n += t.f290
	n += t.f291
	n += t.f292
	n += t.f293
	n += t.f294
	n += t.f295
	n += t.f296
	n += t.f297
	n += t.f298
	t.f299 = n
	t.g = g + n
	return n
}

// Last reads last under the lock.
func (t *T) Last() int { t.mu.Lock(); defer t.mu.Unlock(); return t.last }

// Set writes last under the lock.
func (t *T) Set(n int) { t.mu.Lock(); t.last = n; t.mu.Unlock() }

// Tail reads the last field under the lock: only what Big's summary lost
// conflicts with it.
func (t *T) Tail() int { t.mu.Lock(); defer t.mu.Unlock(); return t.f299 }

// Bump writes the last field under the lock.
func (t *T) Bump() { t.mu.Lock(); t.f299++; t.mu.Unlock() }

// Peek reads the last field without the lock.
func (t *T) Peek() int { return t.f299 }

// SetG writes g under the lock.
func (t *T) SetG(n int) { t.mu.Lock(); t.g = n; t.mu.Unlock() }

// PeekG reads g without the lock: not reported, Big's summary is cut.
func (t *T) PeekG() int { return t.g }
