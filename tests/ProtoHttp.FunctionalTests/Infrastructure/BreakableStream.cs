using ProtoHttp.Client.Internal;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>A response body that reads through until <c>broken</c> completes, then fails as a dropped connection does.</summary>
internal sealed class BreakableStream(Stream inner, Task broken) : ReadOnlyStream
{
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var read = inner.ReadAsync(buffer, cancellationToken).AsTask();
        if (await Task.WhenAny(read, broken) == broken)
        {
            inner.Dispose();
            throw new IOException("The connection broke (the test's doing).");
        }

        return await read;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }
}
