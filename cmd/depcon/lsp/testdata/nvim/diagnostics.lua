-- Opens a Go file, attaches depcon lsp to it with Neovim's built-in LSP
-- client, waits for depcon's diagnostics and writes them as JSON.
--
-- Environment: DEPCON_BIN (the depcon command), DEPCON_FILE (the Go file),
-- DEPCON_ROOT (its module's root), DEPCON_OUT (the JSON file to write).
--
-- vim.lsp.start is Neovim 0.8+; Neovim 0.7 (Debian 12's) has only
-- vim.lsp.start_client and vim.lsp.buf_attach_client.

local env = vim.env
vim.cmd('edit ' .. vim.fn.fnameescape(env.DEPCON_FILE))
local bufnr = vim.api.nvim_get_current_buf()

local config = {
  name = 'depcon',
  cmd = { env.DEPCON_BIN, 'lsp' },
  root_dir = env.DEPCON_ROOT,
}
local client_id
if vim.lsp.start then
  client_id = vim.lsp.start(config, { bufnr = bufnr })
else
  client_id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(bufnr, client_id)
end

local function depcon_diagnostics()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'depcon' then
      table.insert(out, d)
    end
  end
  return out
end

local ok = vim.wait(90000, function() return #depcon_diagnostics() > 0 end, 100)

local result = { ok = ok, nvim = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor), diagnostics = {} }
for _, d in ipairs(depcon_diagnostics()) do
  local lsp = (d.user_data and d.user_data.lsp) or {}
  table.insert(result.diagnostics, {
    lnum = d.lnum,
    col = d.col,
    message = d.message,
    source = d.source,
    code = d.code or lsp.code,
    href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL,
    related = lsp.relatedInformation or {},
  })
end

local f = assert(io.open(env.DEPCON_OUT, 'w'))
f:write(vim.fn.json_encode(result))
f:close()

vim.lsp.stop_client(client_id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
vim.cmd('qall!')
