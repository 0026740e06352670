using System.Buffers;
using System.Runtime.Serialization;
using System.Text;
using System.Text.Json;
using System.Xml;
using System.Xml.Serialization;
using BenchmarkDotNet.Attributes;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// Writes and reads one workload in every format: ProtoHttp's codecs against Google.Protobuf's JSON mapping and the
/// serializer peers over plain classes holding the same data. Each benchmark checks the size it wrote or the content
/// it read, so a codec that silently writes nothing cannot win.
/// </summary>
[MemoryDiagnoser]
public abstract class CodecBenchmarks<TMessage, TDto>
    where TMessage : class, IMessage<TMessage>, new()
    where TDto : class
{
    private static readonly JsonSerializerOptions WebJson = JsonOptions.Web;
    private static readonly XmlReaderSettings SafeXml = new() { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null };

    private readonly ArrayBufferWriter<byte> _buffer = new(1 << 20);
    private readonly MemoryStream _stream = new(1 << 20);
    private readonly DataContractSerializer _dataContract = new(typeof(TDto));
    private readonly XmlSerializer _xmlSerializer = new(typeof(TDto));
    private readonly MessageDescriptor _descriptor = new TMessage().Descriptor;
    private Utf8JsonWriter _jsonWriter = null!;

    private TMessage _message = null!;
    private TDto _dto = null!;
    private long _fingerprint;
    private byte[] _protobuf = [];
    private byte[] _json = [];
    private byte[] _xml = [];
    private byte[] _googleJson = [];
    private byte[] _dataContractXml = [];
    private byte[] _xmlSerializerXml = [];
    private byte[] _systemTextJson = [];

    protected abstract TMessage Load();

    protected abstract TDto ToDto(TMessage message);

    /// <summary>A number that changes when any item is lost: checked after every read.</summary>
    protected abstract long Fingerprint(TMessage message);

    protected abstract long Fingerprint(TDto dto);

    [GlobalSetup]
    public void Setup()
    {
        _message = Load();
        _dto = ToDto(_message);
        _fingerprint = Fingerprint(_message);
        Check.Equal(_fingerprint, Fingerprint(_dto), "the plain classes' copy of the workload");
        _jsonWriter = new Utf8JsonWriter(_buffer);

        _protobuf = Codecs.Write(Codecs.Protobuf, _message);
        _json = Codecs.Write(Codecs.Json, _message);
        _xml = Codecs.Xml is { } xml ? Codecs.Write(xml, _message) : [];
        _googleJson = Encoding.UTF8.GetBytes(Codecs.GoogleFormatter.Format(_message));
        _dataContractXml = Serialize(s => _dataContract.WriteObject(s, _dto));
        _xmlSerializerXml = Serialize(s => _xmlSerializer.Serialize(s, _dto));
        _systemTextJson = JsonSerializer.SerializeToUtf8Bytes(_dto, WebJson);
    }

    [Benchmark]
    public void Protobuf_Write() => CheckWritten(Codecs.Protobuf, _protobuf.Length);

    [Benchmark]
    public void Protobuf_Read() => CheckRead(Codecs.Protobuf.Read(new ReadOnlySequence<byte>(_protobuf), _descriptor));

    [Benchmark]
    public void Json_Write() => CheckWritten(Codecs.Json, _json.Length);

    [Benchmark]
    public void Json_Read() => CheckRead(Codecs.Json.Read(new ReadOnlySequence<byte>(_json), _descriptor));

    [Benchmark]
    public void Xml_Write() => CheckWritten(Codecs.Xml!, _xml.Length);

    [Benchmark]
    public void Xml_Read() => CheckRead(Codecs.Xml!.Read(new ReadOnlySequence<byte>(_xml), _descriptor));

    [Benchmark]
    public void GoogleJsonFormatter_Write()
    {
        // The string JsonFormatter returns still has to become UTF-8 bytes before it can go on the wire.
        _buffer.ResetWrittenCount();
        Encoding.UTF8.GetBytes(Codecs.GoogleFormatter.Format(_message), _buffer);
        Check.Equal(_googleJson.Length, _buffer.WrittenCount, "JsonFormatter's output size");
    }

    [Benchmark]
    public void GoogleJsonParser_Read() =>
        CheckRead((TMessage)Codecs.GoogleParser.Parse(Encoding.UTF8.GetString(_googleJson), _descriptor));

    [Benchmark]
    public void DataContractSerializer_Write()
    {
        _stream.SetLength(0);
        _dataContract.WriteObject(_stream, _dto);
        Check.Equal(_dataContractXml.Length, _stream.Length, "DataContractSerializer's output size");
    }

    [Benchmark]
    public void DataContractSerializer_Read() =>
        CheckRead((TDto)_dataContract.ReadObject(new MemoryStream(_dataContractXml, writable: false))!);

    [Benchmark]
    public void XmlSerializer_Write()
    {
        _stream.SetLength(0);
        _xmlSerializer.Serialize(_stream, _dto);
        Check.Equal(_xmlSerializerXml.Length, _stream.Length, "XmlSerializer's output size");
    }

    [Benchmark]
    public void XmlSerializer_Read() =>
        CheckRead((TDto)_xmlSerializer.Deserialize(XmlReader.Create(new MemoryStream(_xmlSerializerXml, writable: false), SafeXml))!);

    [Benchmark]
    public void SystemTextJson_Write()
    {
        _buffer.ResetWrittenCount();
        _jsonWriter.Reset(_buffer);
        JsonSerializer.Serialize(_jsonWriter, _dto, WebJson);
        Check.Equal(_systemTextJson.Length, _buffer.WrittenCount, "System.Text.Json's output size");
    }

    [Benchmark]
    public void SystemTextJson_Read() => CheckRead(JsonSerializer.Deserialize<TDto>(_systemTextJson, WebJson)!);

    private void CheckWritten(IMessageCodec codec, int expectedLength)
    {
        _buffer.ResetWrittenCount();
        codec.Write(_message, _buffer);
        Check.Equal(expectedLength, _buffer.WrittenCount, ((MessageCodec)codec).Name + " output size");
    }

    private void CheckRead(IMessage message) => Check.Equal(_fingerprint, Fingerprint((TMessage)message), "the message read back");

    private void CheckRead(TDto dto) => Check.Equal(_fingerprint, Fingerprint(dto), "the object read back");

    private byte[] Serialize(Action<Stream> write)
    {
        _stream.SetLength(0);
        write(_stream);
        return _stream.ToArray();
    }
}
