using System.Net.Sockets;
using System.Text;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// One HTTP/1.1 keep-alive connection that sends requests byte for byte as given. HttpClient would repair what the
/// suite breaks on purpose (a lone <c>%</c> in a query becomes <c>%25</c>), so malformed requests go out through this.
/// </summary>
public sealed class RawHttpConnection(Uri server) : IDisposable
{
    private static readonly TimeSpan AnswerTimeout = TimeSpan.FromSeconds(15);

    private TcpClient? _tcp;
    private Stream? _stream;
    private byte[] _buffer = new byte[64 * 1024];
    private int _start;
    private int _end;

    public async Task<RawResponse> SendAsync(string method, string target, IReadOnlyList<(string Name, string Value)> headers, byte[]? body)
    {
        var stream = await ConnectAsync();
        var head = new StringBuilder($"{method} {target} HTTP/1.1\r\nHost: {server.Authority}\r\n");
        foreach (var (name, value) in headers)
        {
            head.Append(name).Append(": ").Append(value).Append("\r\n");
        }

        if (body is not null)
        {
            head.Append("Content-Length: ").Append(body.Length).Append("\r\n");
        }

        head.Append("\r\n");
        using var timeout = new CancellationTokenSource(AnswerTimeout);
        try
        {
            // Sent while the answer is read: a server that answers early (413 on the declared length) may stop reading.
            var sending = SendBytesAsync(stream, Encoding.Latin1.GetBytes(head.ToString()), body, timeout.Token);
            var response = await ReadResponseAsync(stream, timeout.Token);
            try
            {
                await sending;
            }
            catch (Exception ex) when (ex is IOException or SocketException)
            {
                Close(); // Answered, but the rest of the body was refused: this connection is done.
            }

            return response;
        }
        catch (Exception ex) when (ex is IOException or SocketException)
        {
            // The server may close after answering a request it could not parse: the answer, if any, was read.
            Close();
            throw;
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested)
        {
            Close();
            throw new TimeoutException($"No answer within {AnswerTimeout.TotalSeconds} s to {method} {Shorten(target)}.");
        }
    }

    public void Dispose() => Close();

    private static async Task SendBytesAsync(Stream stream, byte[] head, byte[]? body, CancellationToken cancellationToken)
    {
        await stream.WriteAsync(head, cancellationToken);
        if (body is not null)
        {
            await stream.WriteAsync(body, cancellationToken);
        }
    }

    private async Task<Stream> ConnectAsync()
    {
        if (_stream is not null)
        {
            return _stream;
        }

        _tcp = new TcpClient { NoDelay = true };
        await _tcp.ConnectAsync(server.Host, server.Port);
        _stream = _tcp.GetStream();
        _start = _end = 0;
        return _stream;
    }

    private async Task<RawResponse> ReadResponseAsync(Stream stream, CancellationToken cancellationToken)
    {
        var statusLine = await ReadLineAsync(stream, cancellationToken);
        var parts = statusLine.Split(' ', 3);
        var status = int.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture);
        var headers = new List<(string Name, string Value)>();
        for (var line = await ReadLineAsync(stream, cancellationToken); line.Length > 0; line = await ReadLineAsync(stream, cancellationToken))
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            headers.Add((line[..colon].Trim(), line[(colon + 1)..].Trim()));
        }

        var response = new RawResponse(status, headers, []);
        byte[] body;
        if (response.Header("Content-Length") is { } length)
        {
            body = await ReadExactlyAsync(stream, int.Parse(length, System.Globalization.CultureInfo.InvariantCulture), cancellationToken);
        }
        else if (string.Equals(response.Header("Transfer-Encoding"), "chunked", StringComparison.OrdinalIgnoreCase))
        {
            body = await ReadChunkedAsync(stream, cancellationToken);
        }
        else
        {
            body = [];
        }

        if (string.Equals(response.Header("Connection"), "close", StringComparison.OrdinalIgnoreCase))
        {
            Close();
        }

        return response with { Body = body };
    }

    private async Task<byte[]> ReadChunkedAsync(Stream stream, CancellationToken cancellationToken)
    {
        using var body = new MemoryStream();
        while (true)
        {
            var size = Convert.ToInt32((await ReadLineAsync(stream, cancellationToken)).Split(';')[0], 16);
            if (size == 0)
            {
                while ((await ReadLineAsync(stream, cancellationToken)).Length > 0)
                {
                }

                return body.ToArray();
            }

            body.Write(await ReadExactlyAsync(stream, size, cancellationToken));
            await ReadLineAsync(stream, cancellationToken);
        }
    }

    private async Task<string> ReadLineAsync(Stream stream, CancellationToken cancellationToken)
    {
        while (true)
        {
            var newline = Array.IndexOf(_buffer, (byte)'\n', _start, _end - _start);
            if (newline >= 0)
            {
                var line = Encoding.Latin1.GetString(_buffer, _start, newline - _start).TrimEnd('\r');
                _start = newline + 1;
                return line;
            }

            await FillAsync(stream, cancellationToken);
        }
    }

    private async Task<byte[]> ReadExactlyAsync(Stream stream, int count, CancellationToken cancellationToken)
    {
        var result = new byte[count];
        var copied = 0;
        while (copied < count)
        {
            if (_start == _end)
            {
                await FillAsync(stream, cancellationToken);
            }

            var n = Math.Min(count - copied, _end - _start);
            Array.Copy(_buffer, _start, result, copied, n);
            _start += n;
            copied += n;
        }

        return result;
    }

    private async Task FillAsync(Stream stream, CancellationToken cancellationToken)
    {
        if (_start > 0)
        {
            Array.Copy(_buffer, _start, _buffer, 0, _end - _start);
            _end -= _start;
            _start = 0;
        }

        if (_end == _buffer.Length)
        {
            Array.Resize(ref _buffer, _buffer.Length * 2);
        }

        var read = await stream.ReadAsync(_buffer.AsMemory(_end), cancellationToken);
        if (read == 0)
        {
            throw new IOException("The server closed the connection before the answer was complete.");
        }

        _end += read;
    }

    private void Close()
    {
        _stream?.Dispose();
        _tcp?.Dispose();
        _stream = null;
        _tcp = null;
    }

    private static string Shorten(string text) => text.Length <= 120 ? text : text[..120] + "…";
}
